//go:build !unix

package safefs

// openFlags: elsewhere the file opened is only checked after the open.
const openFlags = 0
