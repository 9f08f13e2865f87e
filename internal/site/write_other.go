//go:build !unix

package site

import "os"

// writeFile writes a new file of the site.
func writeFile(name string, data []byte) error { return os.WriteFile(name, data, 0o644) }
