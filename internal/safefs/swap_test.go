//go:build unix

package safefs

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSwappedAfterExamination: a file replaced between its examination and
// its open, by a named pipe or by another file, is refused after the open,
// without blocking.
func TestSwappedAfterExamination(t *testing.T) {
	for _, c := range []struct {
		name string
		swap func(t *testing.T, disk string)
		want func(error) bool
	}{
		{"named pipe", func(t *testing.T, disk string) {
			os.Remove(disk)
			if err := syscall.Mkfifo(disk, 0o644); err != nil {
				t.Fatal(err)
			}
		}, func(err error) bool {
			r, file := Refused(err)
			return r != nil && file == "results/a.log" && r.Mode&os.ModeNamedPipe != 0
		}},
		{"another file", func(t *testing.T, disk string) {
			if err := os.WriteFile(disk+".new", []byte("other"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(disk+".new", disk); err != nil {
				t.Fatal(err)
			}
		}, func(err error) bool { return errors.Is(err, errChanged) }},
		{"link", func(t *testing.T, disk string) {
			os.Remove(disk)
			if err := os.Symlink("/etc/passwd", disk); err != nil {
				t.Fatal(err)
			}
		}, func(err error) bool { return errors.Is(err, syscall.ELOOP) }},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "a.log"), []byte("log"), 0o644); err != nil {
				t.Fatal(err)
			}
			f := New(dir, "results")
			f.r.examined = func(disk string) { c.swap(t, disk) }
			done := make(chan error, 1)
			go func() {
				_, err := f.ReadFile("a.log")
				done <- err
			}()
			select {
			case err := <-done:
				if !c.want(err) {
					t.Errorf("ReadFile = %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("ReadFile blocked on a named pipe swapped in")
			}
		})
	}
}
