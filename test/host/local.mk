# test/host
