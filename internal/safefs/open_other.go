//go:build !unix

package safefs

import (
	"io"
	"io/fs"
	"os"
)

// openFlags: elsewhere the file opened is only checked after the open.
const openFlags = 0

// readExamined reads the file at disk, examined as info, if what it opens
// is that regular file; otherwise it returns the type of what it opened.
// A failed read is an *fs.PathError of Op "read".
func readExamined(disk string, info fs.FileInfo) ([]byte, fs.FileMode, error) {
	file, err := os.OpenFile(disk, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, 0, err
	}
	defer file.Close()
	now, err := file.Stat()
	if err != nil {
		return nil, 0, err
	}
	if t := now.Mode().Type(); t != 0 {
		return nil, t, nil
	}
	if !os.SameFile(info, now) {
		return nil, 0, errChanged
	}
	data := make([]byte, 0, now.Size()+1) // +1: EOF without growing
	for {
		n, err := file.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, 0, nil
		}
		if err != nil {
			return nil, 0, &fs.PathError{Op: "read", Err: err}
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}
