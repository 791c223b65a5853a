print("corelocation-bench: not yet written")
