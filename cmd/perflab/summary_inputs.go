package main

import (
	"crypto/sha256"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// inputFolders are the folders a site is built from; results/ is the one
// summary is given, the others are looked for beside it.
var inputFolders = []string{"results", "content", "locales", "templates"}

// inputChange is one input file that differs between base and head.
type inputChange struct {
	path string // "results/<study>/study.yaml", "locales/en.yaml", ...
	kind string // "added", "removed" or "changed"
}

// inputDigests hashes every file of a project's inputs, keyed by its path
// in the project: the results folder given, and content/, locales/ and
// templates/ beside it when they are there (present lists those found).
// A link is hashed as its target and never followed, a pipe or device as
// its type: nothing but regular files is opened. A missing results folder
// is empty when missingOK.
func inputDigests(results string, missingOK bool) (digests map[string][32]byte, present map[string]bool, err error) {
	digests, present = map[string][32]byte{}, map[string]bool{}
	root := filepath.Dir(filepath.Clean(results))
	for _, folder := range inputFolders {
		dir := filepath.Join(root, folder)
		if folder == "results" {
			dir = results
		}
		info, err := os.Lstat(dir)
		if errors.Is(err, fs.ErrNotExist) && (folder != "results" || missingOK) {
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		if !info.IsDir() {
			continue
		}
		present[folder] = true
		err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, err := filepath.Rel(dir, path)
			if err != nil {
				return err
			}
			sum, err := digestOf(path, d)
			digests[folder+"/"+filepath.ToSlash(rel)] = sum
			return err
		})
		if err != nil {
			return nil, nil, err
		}
	}
	return digests, present, nil
}

func digestOf(path string, d fs.DirEntry) ([32]byte, error) {
	switch {
	case d.Type()&fs.ModeSymlink != 0:
		target, err := os.Readlink(path)
		return sha256.Sum256([]byte("link\x00" + target)), err
	case !d.Type().IsRegular():
		return sha256.Sum256([]byte("type\x00" + d.Type().String())), nil
	}
	f, err := os.Open(path)
	if err != nil {
		return [32]byte{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return [32]byte{}, err
	}
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return sum, nil
}

// inputChanges lists the input files that differ, in path order. A folder
// is compared only when both sides have it; skipped names those that only
// one side has.
func inputChanges(base, head string) (changes []inputChange, skipped []string, err error) {
	b, bPresent, err := inputDigests(base, true)
	if err != nil {
		return nil, nil, err
	}
	h, hPresent, err := inputDigests(head, false)
	if err != nil {
		return nil, nil, err
	}
	compared := func(path string) bool {
		folder, _, _ := strings.Cut(path, "/")
		return folder == "results" || bPresent[folder] && hPresent[folder]
	}
	for _, folder := range inputFolders[1:] {
		if bPresent[folder] != hPresent[folder] {
			skipped = append(skipped, folder)
		}
	}
	for path, sum := range h {
		old, ok := b[path]
		switch {
		case !compared(path):
		case !ok:
			changes = append(changes, inputChange{path, "added"})
		case old != sum:
			changes = append(changes, inputChange{path, "changed"})
		}
	}
	for path := range b {
		if _, ok := h[path]; !ok && compared(path) {
			changes = append(changes, inputChange{path, "removed"})
		}
	}
	sort.Slice(changes, func(i, j int) bool { return changes[i].path < changes[j].path })
	return changes, skipped, nil
}

// reportOf names the report an input file belongs to, or "every report"
// for a shared file (results/prices.yaml, a locale, a template).
func reportOf(path string) string {
	parts := strings.Split(path, "/")
	switch {
	case parts[0] == "results" && len(parts) > 2:
		return parts[1]
	case parts[0] == "content" && len(parts) == 3 && strings.HasSuffix(parts[2], ".md"):
		return strings.TrimSuffix(parts[2], ".md")
	}
	return "every report"
}
