//go:build unix

package pipeline

import (
	"os"
	"syscall"
)

// siteID identifies the site folder a cache describes: a full build swaps
// in a new folder, another inode.
type siteID struct{ Dev, Ino uint64 }

func siteIdentity(dir string) siteID {
	info, err := os.Stat(dir)
	if err != nil {
		return siteID{}
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return siteID{}
	}
	return siteID{Dev: uint64(st.Dev), Ino: uint64(st.Ino)}
}
