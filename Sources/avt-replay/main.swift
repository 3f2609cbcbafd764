print("avt-replay")
