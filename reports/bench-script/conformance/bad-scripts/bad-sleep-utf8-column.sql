\sleep 1 été x y
