// Package site writes a built site to disk atomically: the whole tree is
// written into a temporary folder next to the destination and then swapped
// in, so a failed build leaves the previous site untouched and no stale file
// survives.
//
// It knows output paths, not how pages were rendered.
package site

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Files maps slash-separated paths inside the site to their bytes.
type Files map[string][]byte

// Add stores a file, refusing a path that would leave the site.
func (f Files) Add(name string, data []byte) error {
	clean := filepath.ToSlash(filepath.Clean(name))
	if clean != name || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") || filepath.IsAbs(name) {
		return fmt.Errorf("site: refusing output path %q", name)
	}
	if _, dup := f[name]; dup {
		return fmt.Errorf("site: two pages want the path %q", name)
	}
	f[name] = data
	return nil
}

// Names lists the paths in sorted order.
func (f Files) Names() []string {
	names := make([]string, 0, len(f))
	for n := range f {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Write replaces dir with exactly the given files.
func Write(dir string, files Files) error {
	dir = filepath.Clean(dir)
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".new-")
	if err != nil {
		return err
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	for _, name := range files.Names() {
		p := filepath.Join(tmp, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			return err
		}
	}
	old := ""
	if _, err := os.Lstat(dir); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir)
		}
		return err
	}
	ok = true
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}
