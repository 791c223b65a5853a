print("locationctl: not yet written")
