//go:build !linux

package site

import "errors"

// exchange is not atomic here: Commit falls back to two renames.
func exchange(a, b string) error { return errors.ErrUnsupported }

// lockFile does not lock here: concurrent builds are not detected.
func lockFile(fd uintptr) error { return nil }
