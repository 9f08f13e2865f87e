//go:build linux

package pipeline

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"syscall"
	"testing"
	"unsafe"

	"github.com/perflab/perflab/internal/site"
)

// watchOpens watches every folder under root with inotify and returns a
// function that lists, by path under root, the regular files opened
// since: what the system saw, whatever code opened them.
func watchOpens(t *testing.T, root string) func() map[string]bool {
	t.Helper()
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		t.Skipf("inotify: %v", err)
	}
	t.Cleanup(func() { syscall.Close(fd) })
	dirs := map[int32]string{}
	err = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || !e.IsDir() {
			return err
		}
		wd, err := syscall.InotifyAddWatch(fd, p, syscall.IN_OPEN)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		dirs[int32(wd)] = filepath.ToSlash(rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return func() map[string]bool {
		opened := map[string]bool{}
		buf := make([]byte, 1<<16)
		for {
			n, err := syscall.Read(fd, buf)
			if errors.Is(err, syscall.EAGAIN) {
				return opened
			}
			if err != nil {
				t.Fatal(err)
			}
			for off := 0; off+syscall.SizeofInotifyEvent <= n; {
				ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[off]))
				name := string(bytes.TrimRight(buf[off+syscall.SizeofInotifyEvent:off+syscall.SizeofInotifyEvent+int(ev.Len)], "\x00"))
				off += syscall.SizeofInotifyEvent + int(ev.Len)
				if ev.Mask&syscall.IN_Q_OVERFLOW != 0 {
					t.Fatal("inotify lost events: the queue overflowed")
				}
				if ev.Mask&syscall.IN_ISDIR == 0 && name != "" {
					opened[dirs[ev.Wd]+"/"+name] = true
				}
			}
		}
	}
}

// Every file a build opens for a study, as the system saw it open, is in
// the study's evidence, and the evidence lists nothing the build did not
// open: the list is what the build read, not a list kept by hand.
func TestEvidenceListsEveryFileOpened(t *testing.T) {
	t.Parallel()
	d := withSharedPrices(t)
	opens := watchOpens(t, filepath.Dir(d.Results))
	out := &lockedFiles{files: site.Files{}}
	p, err := Build(d, out)
	if err != nil {
		t.Fatal(err)
	}
	opened := opens()
	if !opened["results/prices.yaml"] {
		t.Fatalf("the build did not open results/prices.yaml; it opened %d files", len(opened))
	}
	for _, res := range p.Results {
		id := res.Study.ID
		ev := evidenceOf(t, out.files, id)
		listed := map[string]bool{}
		for _, f := range append(ev.Logs, ev.Inputs...) {
			listed[f.Path] = true
			if !opened[f.Path] {
				t.Errorf("%s: the evidence lists %s, which the build never opened", id, f.Path)
			}
		}
		for f := range opened {
			if belongsTo(f, id) && !listed[f] {
				t.Errorf("%s: the build opened %s, which its evidence does not list", id, f)
			}
		}
	}
}
