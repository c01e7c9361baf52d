\sleep :naptime hours
