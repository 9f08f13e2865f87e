package site

import "golang.org/x/sys/unix"

// exchange swaps two folders in one step (renameat2 with RENAME_EXCHANGE):
// a process killed at any moment leaves either the old site or the new one
// at the destination, never neither.
func exchange(a, b string) error {
	return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
}

// lockFile takes an exclusive lock on an open file without waiting.
func lockFile(fd uintptr) error { return unix.Flock(int(fd), unix.LOCK_EX|unix.LOCK_NB) }
