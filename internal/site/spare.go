package site

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// The spare: a build that will be followed by others (a cached build,
// perflab serve) keeps the old site beside the new one after the swap,
// as .<base>.spare, instead of removing it, with a stamp naming the build
// it holds. The next build that knows which files changed since that
// build brings the spare up to date, writing and linking only those files
// and removing those that no longer belong, and swaps it in: its cost
// follows the change, not the site.
//
// The spare and the site share the inodes of the files they have in
// common (hard links), so a file of the spare is never written in place:
// a new file is written beside it and renamed over it. Before the first
// change the spare's stamp becomes a marker: a build killed while it
// updates the spare leaves a spare with no stamp, which the next build
// removes whole and does not use.

const (
	spareStamp  = ".perflab-spare"    // in a spare: the token of the build it holds
	spareMarker = ".perflab-updating" // in a spare being brought up to date
	tempPrefix  = ".perflab-new-"     // a file of the spare being replaced
)

// sparePath is where the spare of the site dir is kept.
func sparePath(dir string) string {
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".spare")
}

// UseSpare makes the Writer bring the spare up to date rather than write a
// new site, when the spare holds the build token names (token is not "");
// it says whether it does. Any other spare is removed. Call it before
// adding any file. A reused spare holds the files of that build: Keep
// claims one as it is; Add and Link replace one; RemoveOthers removes the
// ones not claimed.
func (w *Writer) UseSpare(token string) (bool, error) {
	spare := sparePath(w.dir)
	held, err := os.ReadFile(filepath.Join(spare, spareStamp))
	if token == "" || err != nil || string(held) != token || !isFolder(spare) {
		return false, removeSpare(w.dir)
	}
	if err := w.step("spare", ""); err != nil {
		return false, err
	}
	// From here on the spare is not the build its stamp named.
	if err := os.Rename(filepath.Join(spare, spareStamp), filepath.Join(spare, spareMarker)); err != nil {
		return false, err
	}
	if err := os.Remove(w.tmp); err != nil { // the empty folder of Create
		return false, err
	}
	w.tmp, w.reuse = spare, true
	return true, nil
}

// KeepSpare makes Commit keep the old site as the spare, stamped with
// token, the build it holds, rather than remove it.
func (w *Writer) KeepSpare(token string) { w.keep = token }

// Keep claims a file the reused spare already holds, unchanged.
func (w *Writer) Keep(name string) error {
	if !w.reuse {
		return errors.New("site: Keep without a spare")
	}
	if err := CheckPath(name); err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.names[name] {
		return errors.New("site: two pages want the path " + name)
	}
	w.names[name] = true
	return nil
}

// RemoveOthers removes from the reused spare those of names that were not
// claimed (files of the spare's build that no longer belong), and the
// folders they leave empty.
func (w *Writer) RemoveOthers(names []string) error {
	for _, name := range names {
		if w.Has(name) || CheckPath(name) != nil {
			continue
		}
		if err := w.step("remove", name); err != nil {
			return err
		}
		p := filepath.Join(w.tmp, filepath.FromSlash(name))
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			if os.Remove(filepath.Join(w.tmp, filepath.FromSlash(d))) != nil {
				break // not empty, or gone
			}
		}
	}
	return nil
}

// tempName is the new file that replaces p.
func tempName(p string) string {
	return filepath.Join(filepath.Dir(p), tempPrefix+filepath.Base(p))
}

// replace makes the file p anew: write writes it under a temporary name,
// which is then renamed over p. A temporary file left by a killed build
// is removed with the spare it is in.
func replace(p string, write func(tmp string) error) error {
	tmp := tempName(p)
	os.Remove(tmp)
	if err := write(tmp); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return err
	}
	// When tmp and p were links to one file, rename left both.
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// retire removes the old site, now in the folder old, or keeps it as the
// spare: stamped first, then renamed, so that a spare is never without
// its stamp unless it is being updated.
func (w *Writer) retire(old string) error {
	beforeSwap("remove old")
	if err := w.step("remove old", ""); err != nil {
		return err
	}
	if w.keep == "" {
		if err := os.RemoveAll(old); err != nil {
			return err
		}
		return removeSpare(w.dir)
	}
	spare := sparePath(w.dir)
	if old != spare { // a reused spare holds the old site already
		if err := removeSpare(w.dir); err != nil {
			return err
		}
	}
	if err := os.WriteFile(filepath.Join(old, spareStamp), []byte(w.keep), 0o644); err != nil {
		return err
	}
	if err := w.step("keep spare", ""); err != nil {
		return err
	}
	if old == spare {
		return nil
	}
	if err := os.Rename(old, spare); err != nil {
		// A folder perflab did not make holds the place: no spare.
		return os.RemoveAll(old)
	}
	return nil
}

// removeSpare removes the spare of dir, only when it is a folder holding
// something perflab leaves in a site or a spare: never a folder perflab
// did not make.
func removeSpare(dir string) error {
	spare := sparePath(dir)
	if !isFolder(spare) {
		return nil
	}
	for _, mark := range []string{Stamp, spareStamp, spareMarker} {
		if fi, err := os.Lstat(filepath.Join(spare, mark)); err == nil && fi.Mode().IsRegular() {
			return os.RemoveAll(spare)
		}
	}
	return nil
}

// isFolder tells whether p is a folder, not a link to one.
func isFolder(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}
