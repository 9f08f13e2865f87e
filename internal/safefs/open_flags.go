//go:build unix

package safefs

import "syscall"

// openFlags open a file without following a link at the end of its path,
// and a named pipe swapped in for a file without waiting for a writer.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
