\sleep 10hours
