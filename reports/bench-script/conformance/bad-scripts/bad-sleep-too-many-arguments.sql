\sleep 1 ms extra
