// Package site writes a built site to disk atomically: the whole tree is
// written into a temporary folder next to the destination and then swapped
// in, so a failed build leaves the previous site untouched and no stale file
// survives.
//
// It knows output paths, not how pages were rendered.
package site

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Files maps slash-separated paths inside the site to their bytes.
type Files map[string][]byte

// Add stores a file, refusing a path that would leave the site.
func (f Files) Add(name string, data []byte) error {
	if err := CheckPath(name); err != nil {
		return err
	}
	if _, dup := f[name]; dup {
		return fmt.Errorf("site: two pages want the path %q", name)
	}
	f[name] = data
	return nil
}

// checkPath refuses a path that would leave the site.
func CheckPath(name string) error {
	clean := filepath.ToSlash(filepath.Clean(name))
	if clean != name || clean == "." || clean == ".." || strings.HasPrefix(clean, "../") || filepath.IsAbs(name) {
		return fmt.Errorf("site: refusing output path %q", name)
	}
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
	w, err := Create(dir)
	if err != nil {
		return err
	}
	for _, name := range files.Names() {
		if err := w.Add(name, files[name]); err != nil {
			w.Abort()
			return err
		}
	}
	return w.Commit()
}

// Writer writes a site file by file into a temporary folder next to its
// destination, so that a build need not hold every page in memory; Commit
// swaps the folder in, Abort removes it. Add may be called from several
// goroutines at once.
type Writer struct {
	dir, tmp string
	lock     *os.File // held from Create to Commit or Abort
	mu       sync.Mutex
	names    map[string]bool
	dirs     map[string]*folder // folders made, or being made, inside tmp
	done     bool
	// reuse: tmp is the spare, an older site brought up to date in place
	// (see spare.go); keep: the token the old site is kept under as the
	// spare after Commit, "" to remove it.
	reuse bool
	keep  string
}

// Stamp is the file perflab leaves in every site it commits: a folder
// without it was not made by perflab and is never replaced.
const Stamp = ".perflab-site"

const stampText = "This folder is a site built by perflab. The next build replaces it whole.\n"

// CheckDestination refuses to replace dir unless it is missing, an empty
// folder or a site perflab made (it has the Stamp): a mistyped --out must
// not delete the inputs, the project or anyone's files.
func CheckDestination(dir string) error {
	fi, err := os.Lstat(dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("%s is a symbolic link: perflab writes a site only into a real folder; pass another --out", dir)
	case !fi.IsDir():
		return fmt.Errorf("%s is a file, not a folder: pass another --out", dir)
	}
	if st, err := os.Lstat(filepath.Join(dir, Stamp)); err == nil && st.Mode().IsRegular() {
		return nil
	}
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	if names, _ := f.Readdirnames(1); len(names) > 0 {
		return fmt.Errorf("%s is a folder perflab did not build (it has no %s file), and a build replaces its output folder whole: pass an empty or new folder to --out, or move %s away yourself", dir, Stamp, dir)
	}
	return nil
}

// Create starts writing the site that will replace dir. It locks dir's
// parent folder, so that a second build at the same time fails rather than
// mixing two sites, and removes the temporary folders that a killed build
// left there.
func Create(dir string) (*Writer, error) {
	dir = filepath.Clean(dir)
	if err := CheckDestination(dir); err != nil {
		return nil, err
	}
	parent, base := filepath.Dir(dir), filepath.Base(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	// The lock is on the parent folder itself, so that none is left behind.
	lock, err := os.Open(parent)
	if err != nil {
		return nil, err
	}
	if err := lockWithin(lock.Fd(), time.Second); err != nil {
		lock.Close()
		return nil, fmt.Errorf("another perflab build is writing into %s: wait for it to finish, then build again", parent)
	}
	removeStale(parent, base)
	tmp, err := os.MkdirTemp(parent, "."+base+".new-")
	if err != nil {
		lock.Close()
		return nil, err
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		lock.Close()
		return nil, err
	}
	return &Writer{dir: dir, tmp: tmp, lock: lock, names: map[string]bool{}, dirs: map[string]*folder{".": made}}, nil
}

// lockWithin takes the lock of fd, trying again for up to wait: a process
// this one starts holds a copy of the lock's descriptor from its fork to
// its exec, for an instant, and the lock with it. Another build holds it
// for seconds.
func lockWithin(fd uintptr, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	for {
		err := lockFile(fd)
		if err == nil || time.Now().After(deadline) {
			return err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// removeStale removes what a build killed before its end left next to the
// site: its temporary folder (.<base>.new-*) and, after the swap, the old
// site (.<base>.new-*.old, or .<base>.spare.old). Only folders of that
// name, and only while the lock is held, so no running build loses its
// folder.
func removeStale(parent, base string) {
	stale, _ := filepath.Glob(filepath.Join(parent, "."+base+".new-*"))
	// The old site that a spare swapped in by two renames left.
	stale = append(stale, sparePath(filepath.Join(parent, base))+".old")
	for _, p := range stale {
		if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
			os.RemoveAll(p)
		}
	}
}

// Dir is the temporary folder the files are written into.
func (w *Writer) Dir() string { return w.tmp }

// folder is a folder of the site, made once: the first file in it makes it,
// outside the Writer's lock, so that making it (a slow system call on some
// file systems) holds up no file in another folder.
type folder struct {
	once sync.Once
	err  error
}

// made is a folder that exists.
var made = func() *folder { f := &folder{}; f.once.Do(func() {}); return f }()

// claim checks a path and reserves it, making its folder.
func (w *Writer) claim(name string) (string, error) {
	if err := CheckPath(name); err != nil {
		return "", err
	}
	w.mu.Lock()
	if w.done {
		w.mu.Unlock()
		return "", fmt.Errorf("site: %q added after the site was committed or aborted", name)
	}
	if w.names[name] {
		w.mu.Unlock()
		return "", fmt.Errorf("site: two pages want the path %q", name)
	}
	w.names[name] = true
	d := path.Dir(name)
	f := w.dirs[d]
	if f == nil {
		f = &folder{}
		w.dirs[d] = f
	}
	w.mu.Unlock()
	f.once.Do(func() { f.err = mkdir(filepath.Join(w.tmp, filepath.FromSlash(d))) })
	if f.err != nil {
		return "", f.err
	}
	return filepath.Join(w.tmp, filepath.FromSlash(name)), nil
}

// mkdir makes a folder whose parent usually exists already (a study's,
// under its language): one system call where os.MkdirAll makes three.
func mkdir(dir string) error {
	if os.Mkdir(dir, 0o755) == nil {
		return nil
	}
	return os.MkdirAll(dir, 0o755) // a missing parent, or a folder or file already there

}

// Add writes one file.
func (w *Writer) Add(name string, data []byte) error {
	p, err := w.claim(name)
	if err != nil {
		return err
	}
	if err := w.step("write", name); err != nil {
		return err
	}
	if w.reuse {
		return replace(p, func(tmp string) error { return writeFile(tmp, data) })
	}
	return writeFile(p, data)
}

// Create adds a file written in pieces, for a file too large to be made
// in memory first; it is complete once Close returns nil, which reports
// any error of the writes before it.
func (w *Writer) Create(name string) (io.WriteCloser, error) {
	p, err := w.claim(name)
	if err != nil {
		return nil, err
	}
	if err := w.step("write", name); err != nil {
		return nil, err
	}
	to := ""
	if w.reuse { // a new file, renamed over the spare's on Close
		to, p = p, tempName(p)
		os.Remove(p)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	return &bufferedFile{Writer: bufio.NewWriterSize(f, 1<<16), f: f, to: to}, nil
}

// bufferedFile keeps the first error of its writes for Close.
type bufferedFile struct {
	*bufio.Writer
	f  *os.File
	to string // where the file is renamed on Close, if anywhere
}

func (b *bufferedFile) Close() error {
	err := b.Flush()
	if cerr := b.f.Close(); err == nil {
		err = cerr
	}
	if err == nil && b.to != "" {
		err = os.Rename(b.f.Name(), b.to)
	}
	return err
}

// ReadFile returns a file added before, as written.
func (w *Writer) ReadFile(name string) ([]byte, error) {
	if !w.Has(name) {
		return nil, fmt.Errorf("site: %q was not added", name)
	}
	return os.ReadFile(filepath.Join(w.tmp, filepath.FromSlash(name)))
}

// Link adds a file by hard-linking an existing one, copying it where links
// are not possible. The file must not change afterwards.
func (w *Writer) Link(name, from string) error {
	p, err := w.claim(name)
	if err != nil {
		return err
	}
	if err := w.step("link", name); err != nil {
		return err
	}
	if w.reuse {
		return replace(p, func(tmp string) error { return linkOrCopy(from, tmp) })
	}
	return linkOrCopy(from, p)
}

// linkOrCopy makes p a hard link to from, or a copy of it.
func linkOrCopy(from, p string) error {
	if os.Link(from, p) == nil {
		return nil
	}
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(p, data, 0o644)
}

// Has reports whether a file was added.
func (w *Writer) Has(name string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.names[name]
}

// Names lists the paths added so far, sorted.
func (w *Writer) Names() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	names := make([]string, 0, len(w.names))
	for n := range w.names {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Abort removes what was written; the destination is untouched.
func (w *Writer) Abort() {
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
	os.RemoveAll(w.tmp) // a reused spare too: it is no build now
	w.lock.Close()
}

// beforeSwap is a test hook: it runs between each step of Commit.
var beforeSwap = func(step string) {}

// Commit replaces the destination with the files written: in one atomic
// exchange where the system has one (Linux), else by two renames. The old
// site is then removed, or kept as the spare (KeepSpare).
func (w *Writer) Commit() error {
	w.mu.Lock()
	w.done = true
	w.mu.Unlock()
	defer w.lock.Close()
	dir, tmp := w.dir, w.tmp
	err := w.step("stamp", Stamp)
	if err == nil {
		err = w.writeStamp()
	}
	if err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := CheckDestination(dir); err != nil { // it may have changed since Create
		os.RemoveAll(tmp)
		return err
	}
	beforeSwap("swap")
	if err := w.step("swap", ""); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if _, err := os.Lstat(dir); err == nil {
		if exchange(tmp, dir) == nil {
			return w.retire(tmp) // now the old site
		}
	}
	old := ""
	if _, err := os.Lstat(dir); err == nil {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			os.RemoveAll(tmp)
			return err
		}
	}
	beforeSwap("rename new")
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir)
		}
		os.RemoveAll(tmp)
		return err
	}
	if old != "" {
		return w.retire(old)
	}
	return removeSpare(dir)
}

// writeStamp writes perflab's Stamp into the new site; a spare has it
// already, and loses the marker of its update (the site must not hold it).
func (w *Writer) writeStamp() error {
	p := filepath.Join(w.tmp, Stamp)
	if !w.reuse {
		return os.WriteFile(p, []byte(stampText), 0o644)
	}
	if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
		if err := replace(p, func(tmp string) error { return os.WriteFile(tmp, []byte(stampText), 0o644) }); err != nil {
			return err
		}
	}
	return os.Remove(filepath.Join(w.tmp, spareMarker))
}
