//go:build !unix && !windows

package safefs

const openFlags = 0
