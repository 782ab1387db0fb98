// The seat page (filled in by the next commit).
