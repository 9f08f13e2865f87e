// Package safefs reads a project folder (results/, content/, locales/,
// templates/) that may come from an untrusted pull request: every path,
// name and byte in it is hostile.
//
// An FS is an io/fs.FS over one folder that follows no symbolic link, not
// even one that stays inside the folder, and opens nothing but regular files
// and folders: a link, a named pipe, a device or a socket is refused with an
// *fs.PathError whose Err is a *Refusal, before it is opened (each folder on
// the way is examined once, each file before each open), so that reading a
// named pipe never blocks and a link never leads out of the project. A file
// is opened without following a link and without blocking, and checked to be
// the file examined.
//
// It guards a tree that does not change while perflab reads it, such as a
// checkout: a process that swaps a folder above a file for a link between
// its examination and the open could still lead perflab out of the tree
// (os.Root would stop that, at four times the system calls per file, and
// it follows links that stay inside it). Such a process runs with
// perflab's rights and could read the file itself.
//
// Every error names the file as the project does: the root given to New
// (such as "results") joined with the name, never a path inside the folder
// alone.
//
// ReadDir lists links and special files as they are, without following
// them; callers report them with Check. The package never prints.
package safefs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Refusal says why a path was not read: it is a symbolic link or not a
// regular file or folder. It is the Err of the *fs.PathError that names the
// path.
type Refusal struct {
	Mode fs.FileMode // the type bits of the path, as Lstat saw them
}

func (r *Refusal) Error() string {
	switch t := r.Mode.Type(); {
	case t&fs.ModeSymlink != 0:
		return "is a symbolic link, which perflab never follows: replace it with the file or folder itself"
	case t&fs.ModeNamedPipe != 0:
		return "is a named pipe, not a regular file: remove it"
	case t&fs.ModeSocket != 0:
		return "is a socket, not a regular file: remove it"
	case t&fs.ModeDevice != 0:
		return "is a device, not a regular file: remove it"
	default:
		return "is not a regular file or folder: remove it"
	}
}

// Refused returns the refusal in err and the path it names, or nil.
func Refused(err error) (*Refusal, string) {
	if err == nil {
		return nil, ""
	}
	var pe *fs.PathError
	var r *Refusal
	if errors.As(err, &pe) && errors.As(pe.Err, &r) {
		return r, pe.Path
	}
	return nil, ""
}

// Check returns the refusal of a path of the given type (from a DirEntry's
// Type or a FileInfo's Mode), named file, or nil for a regular file or a
// folder.
func Check(file string, mode fs.FileMode) error {
	if t := mode.Type(); t != 0 && t != fs.ModeDir {
		return &fs.PathError{Op: "open", Path: file, Err: &Refusal{Mode: t}}
	}
	return nil
}

// FS reads the folder dir; errors name its files below root.
type FS struct {
	prefix string // the sub-tree of the folder read ("" or "x/y/")
	r      *folder
}

// folder is the folder an FS and its sub-trees read.
type folder struct {
	dir, root string
	once      sync.Once
	err       error
	// verified holds the folders found to be folders, not links: each is
	// examined once.
	mu       sync.RWMutex
	verified map[string]bool
	// examined, when set (by tests), runs between the examination of a
	// path and its open.
	examined func(disk string)
	// seen, unless nil, is given every file ReadFile read (NewObserved).
	seen func(file string, data []byte)
}

// New returns an FS over the folder dir whose files are named root/name in
// errors; root is typically the folder as the project names it, such as
// "results". A missing folder is not an error until it is read.
func New(dir, root string) *FS {
	return &FS{r: &folder{dir: dir, root: path.Clean(root)}}
}

// NewObserved is New, and calls seen with the name (as errors give it)
// and the bytes of every file that ReadFile reads, from any goroutine,
// in this FS and its sub-trees: a build lists what it read from that
// (the evidence of docs/downloads.md). Open is not observed.
func NewObserved(dir, root string, seen func(file string, data []byte)) *FS {
	f := New(dir, root)
	f.r.seen = seen
	return f
}

// show names a path of the folder as the project does.
func (f *FS) show(full string) string {
	if full == "." || full == "" {
		return f.r.root
	}
	return f.r.root + "/" + full
}

// full is name inside the folder.
func (f *FS) full(name string) string {
	if name == "." {
		if f.prefix == "" {
			return "."
		}
		return f.prefix[:len(f.prefix)-1]
	}
	return f.prefix + name
}

// checkRoot examines the folder itself, once.
func (f *FS) checkRoot() error {
	r := f.r
	r.once.Do(func() {
		// The folder itself may be a link: the project's results/ can be
		// one as well as anything under it.
		info, err := os.Lstat(r.dir)
		if err != nil {
			r.err = unwrap(err)
			return
		}
		if t := info.Mode().Type(); t != fs.ModeDir {
			r.err = &Refusal{Mode: t}
			if t == 0 {
				r.err = errNotDir
			}
		}
	})
	return r.err
}

// disk is the path on the disk of full, a path inside the folder.
func (f *FS) disk(full string) string {
	if full == "." {
		return f.r.dir
	}
	return f.r.dir + string(filepath.Separator) + filepath.FromSlash(full)
}

var errNotDir = errors.New("is a file, not a folder")

// fail names full in err, as the project names it.
func (f *FS) fail(op, full string, err error) error {
	return &fs.PathError{Op: op, Path: f.show(full), Err: unwrap(err)}
}

// lstat examines name and every folder above it in the folder, without
// following links, and returns what name is.
func (f *FS) lstat(op, name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, f.fail(op, f.prefix+name, fs.ErrInvalid)
	}
	if err := f.checkRoot(); err != nil {
		return nil, f.fail(op, ".", err)
	}
	full := f.full(name)
	// The folders above name, from the top: the system follows a link
	// anywhere in a path but at its end.
	for i := 0; i < len(full); i++ {
		if full[i] != '/' {
			continue
		}
		dir := full[:i]
		f.r.mu.RLock()
		ok := f.r.verified[dir]
		f.r.mu.RUnlock()
		if ok {
			continue
		}
		info, err := os.Lstat(f.disk(dir))
		if err != nil {
			return nil, f.fail(op, dir, err)
		}
		if t := info.Mode().Type(); t != fs.ModeDir {
			if t == 0 {
				return nil, f.fail(op, full, errNotDirAbove)
			}
			return nil, f.fail(op, dir, &Refusal{Mode: t})
		}
		f.r.mu.Lock()
		if f.r.verified == nil {
			f.r.verified = map[string]bool{}
		}
		f.r.verified[dir] = true
		f.r.mu.Unlock()
	}
	info, err := os.Lstat(f.disk(full))
	if err != nil {
		return nil, f.fail(op, full, err)
	}
	if t := info.Mode().Type(); t != 0 && t != fs.ModeDir {
		return nil, Check(f.show(full), t)
	}
	return info, nil
}

var errNotDirAbove = errors.New("a folder above it is a file")

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Open opens a regular file or a folder.
func (f *FS) Open(name string) (fs.File, error) {
	file, _, err := f.open("open", name)
	if err != nil {
		return nil, err
	}
	return &safeFile{File: file, fsys: f, full: f.full(name)}, nil
}

// open examines name, opens it without blocking and checks that what was
// opened is what was examined.
func (f *FS) open(op, name string) (*os.File, fs.FileInfo, error) {
	info, err := f.lstat(op, name)
	if err != nil {
		return nil, nil, err
	}
	full := f.full(name)
	if f.r.examined != nil {
		f.r.examined(f.disk(full))
	}
	// Not blocking: a named pipe swapped in after lstat opens at once and
	// is then refused.
	file, err := os.OpenFile(f.disk(full), os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, f.fail(op, full, err)
	}
	now, err := file.Stat()
	if err != nil {
		file.Close()
		return nil, nil, f.fail(op, full, err)
	}
	if t := now.Mode().Type(); t != 0 && t != fs.ModeDir {
		file.Close()
		return nil, nil, Check(f.show(full), t)
	}
	if !os.SameFile(info, now) {
		file.Close()
		return nil, nil, f.fail(op, full, errChanged)
	}
	return file, now, nil
}

var errChanged = errors.New("changed while perflab was reading it: run perflab again")

// ReadFile reads a regular file.
func (f *FS) ReadFile(name string) ([]byte, error) {
	info, err := f.lstat("open", name)
	if err != nil {
		return nil, err
	}
	full := f.full(name)
	if info.IsDir() {
		return nil, f.fail("read", full, errIsDir)
	}
	if f.r.examined != nil {
		f.r.examined(f.disk(full))
	}
	data, opened, err := readExamined(f.disk(full), info)
	switch {
	case err != nil:
		op := "open"
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			op = pe.Op
		}
		return nil, f.fail(op, full, err)
	case opened == fs.ModeDir:
		return nil, f.fail("read", full, errIsDir)
	case opened != 0:
		return nil, Check(f.show(full), opened)
	}
	if f.r.seen != nil {
		f.r.seen(f.show(full), data)
	}
	return data, nil
}

var errIsDir = errors.New("is a folder, not a file")

// ReadDir lists a folder in name order. Links and special files are listed
// as what they are (see Check); nothing is followed.
func (f *FS) ReadDir(name string) ([]fs.DirEntry, error) {
	file, info, err := f.open("open", name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	if !info.IsDir() {
		return nil, f.fail("readdir", f.full(name), errNotDir)
	}
	entries, err := file.ReadDir(-1)
	if err != nil {
		return nil, f.fail("readdir", f.full(name), err)
	}
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// Stat describes a regular file or folder.
func (f *FS) Stat(name string) (fs.FileInfo, error) {
	return f.lstat("stat", name)
}

// Sub returns the FS of a folder of f, whose files are named below
// root/dir.
func (f *FS) Sub(dir string) (fs.FS, error) {
	if dir == "." {
		return f, nil
	}
	if !fs.ValidPath(dir) {
		return nil, f.fail("sub", f.prefix+dir, fs.ErrInvalid)
	}
	return &FS{prefix: f.prefix + dir + "/", r: f.r}, nil
}

// safeFile is a file or folder opened by an FS: its ReadDir lists the
// folder as FS.ReadDir does, and its errors name it as the project does.
type safeFile struct {
	*os.File
	fsys *FS
	full string
}

func (s *safeFile) Stat() (fs.FileInfo, error) {
	info, err := s.File.Stat()
	if err != nil {
		return nil, s.fsys.fail("stat", s.full, err)
	}
	return info, nil
}

func (s *safeFile) Read(p []byte) (int, error) {
	n, err := s.File.Read(p)
	if err != nil && err != io.EOF {
		err = s.fsys.fail("read", s.full, err)
	}
	return n, err
}

func (s *safeFile) ReadDir(n int) ([]fs.DirEntry, error) {
	entries, err := s.File.ReadDir(n)
	if err != nil && err != io.EOF {
		err = s.fsys.fail("readdir", s.full, err)
	}
	return entries, err
}
