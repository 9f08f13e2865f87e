//go:build !unix

package pipeline

// siteID identifies the site folder a cache describes; without inodes it is
// unknown, and every cached build is a full build.
type siteID struct{ Dev, Ino uint64 }

func siteIdentity(string) siteID { return siteID{} }
