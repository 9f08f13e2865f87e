//go:build unix || windows

package safefs

import "syscall"

// openFlags opens a named pipe swapped in for a file without waiting for a
// writer.
const openFlags = syscall.O_NONBLOCK
