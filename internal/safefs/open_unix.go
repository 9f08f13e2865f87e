//go:build unix

package safefs

import (
	"io/fs"
	"syscall"
)

// openFlags open a file without following a link at the end of its path,
// and a named pipe swapped in for a file without waiting for a writer.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// readExamined reads the file at disk, examined as info, if what it opens
// is that regular file; otherwise it returns the type of what it opened.
// A failed read is an *fs.PathError of Op "read".
//
// It makes its own system calls: os.OpenFile asks the system twice more
// whether it could wait on the file (fcntl, epoll_ctl), which a build
// opening 100,000 files notices (docs/performance.md).
func readExamined(disk string, info fs.FileInfo) ([]byte, fs.FileMode, error) {
	fd, err := openRetry(disk, syscall.O_RDONLY|syscall.O_CLOEXEC|openFlags, 0)
	if err != nil {
		return nil, 0, err
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, 0, err
	}
	if t := fileType(st.Mode); t != 0 {
		return nil, t, nil
	}
	if was, ok := info.Sys().(*syscall.Stat_t); !ok || was.Dev != st.Dev || was.Ino != st.Ino {
		return nil, 0, errChanged
	}
	data := make([]byte, 0, st.Size+1) // +1: EOF without growing
	for {
		n, err := syscall.Read(fd, data[len(data):cap(data)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, 0, &fs.PathError{Op: "read", Err: err}
		case n == 0:
			return data, 0, nil
		}
		data = data[:len(data)+n]
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// openRetry opens a file, again when a signal interrupts the call.
func openRetry(name string, flags int, perm uint32) (int, error) {
	for {
		fd, err := syscall.Open(name, flags, perm)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// fileType is the io/fs type of a system file mode.
func fileType(mode uint32) fs.FileMode {
	switch mode & syscall.S_IFMT {
	case syscall.S_IFREG:
		return 0
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}
