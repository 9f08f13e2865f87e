//go:build unix

package safefs_test

import (
	"errors"
	"io/fs"
	"maps"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"

	"github.com/perflab/perflab/internal/safefs"
)

const secret = "root:x:0:0:SECRET-OUTSIDE-THE-PROJECT"

// hostile makes a results/ folder with one of each thing a pull request
// can hold besides files and folders, and a secret outside it.
func hostile(t *testing.T) (dir string) {
	t.Helper()
	top := t.TempDir()
	outside := filepath.Join(top, "outside")
	dir = filepath.Join(top, "results")
	for _, d := range []string{outside, filepath.Join(dir, "s", "runs", "r")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, data string) {
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(outside, "passwd"), secret)
	write(filepath.Join(dir, "s", "study.yaml"), "model: m\n")
	write(filepath.Join(dir, "s", "runs", "r", "run.yaml"), "name: r\n")
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	link(filepath.Join(outside, "passwd"), "s/runs/r/out.log") // a file outside
	link(outside, "evil")                                      // a folder outside
	link("run.yaml", "s/runs/r/in.log")                        // a file inside
	link("r", "s/runs/alias")                                  // a folder inside
	if err := syscall.Mkfifo(filepath.Join(dir, "s", "runs", "r", "pipe.log"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A socket's path must be short: make it in a short folder and move it.
	sockDir, err := os.MkdirTemp("", "sock")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	ln, err := net.Listen("unix", filepath.Join(sockDir, "s"))
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if err := os.Rename(filepath.Join(sockDir, "s"), filepath.Join(dir, "s", "runs", "r", "sock.log")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// within fails the test if f does not return in time: opening a named pipe
// must never block.
func within(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("reading blocked (a named pipe was opened?)")
	}
}

func TestRefusals(t *testing.T) {
	fsys := safefs.New(hostile(t), "results")
	for _, c := range []struct{ name, path, msg string }{
		{"s/runs/r/out.log", "results/s/runs/r/out.log", "is a symbolic link, which perflab never follows: replace it with the file or folder itself"},
		{"s/runs/r/in.log", "results/s/runs/r/in.log", "is a symbolic link"},
		{"evil/passwd", "results/evil", "is a symbolic link"},
		{"s/runs/alias/run.yaml", "results/s/runs/alias", "is a symbolic link"},
		{"s/runs/r/pipe.log", "results/s/runs/r/pipe.log", "is a named pipe, not a regular file: remove it"},
		{"s/runs/r/sock.log", "results/s/runs/r/sock.log", "is a socket, not a regular file: remove it"},
	} {
		for _, op := range []struct {
			name string
			f    func(string) error
		}{
			{"ReadFile", func(n string) error { _, err := fsys.ReadFile(n); return err }},
			{"Open", func(n string) error { _, err := fsys.Open(n); return err }},
			{"Stat", func(n string) error { _, err := fsys.Stat(n); return err }},
			{"fs.ReadFile of Sub", func(n string) error {
				sub, err := fs.Sub(fsys, "s")
				if err != nil {
					return err
				}
				rest, ok := strings.CutPrefix(n, "s/")
				if !ok {
					return nil
				}
				_, err = fs.ReadFile(sub, rest)
				if err == nil {
					return errors.New("read")
				}
				return err
			}},
		} {
			var err error
			within(t, func() { err = op.f(c.name) })
			if op.name == "fs.ReadFile of Sub" && !strings.HasPrefix(c.name, "s/") {
				continue
			}
			r, file := safefs.Refused(err)
			if r == nil || file != c.path || !strings.Contains(r.Error(), c.msg) {
				t.Errorf("%s(%s) = %v, want a refusal of %s: %s", op.name, c.name, err, c.path, c.msg)
			}
			if err != nil && !strings.HasPrefix(strings.TrimPrefix(strings.TrimPrefix(err.Error(), "open "), "stat "), "results/") {
				t.Errorf("%s(%s): error %q does not name the file under results/", op.name, c.name, err)
			}
			if err != nil && strings.Contains(err.Error(), "SECRET") {
				t.Errorf("%s(%s): error shows the file outside: %v", op.name, c.name, err)
			}
		}
	}
}

func TestRegularFilesRead(t *testing.T) {
	fsys := safefs.New(hostile(t), "results")
	data, err := fsys.ReadFile("s/study.yaml")
	if err != nil || string(data) != "model: m\n" {
		t.Fatalf("ReadFile = %q, %v", data, err)
	}
	sub, err := fs.Sub(fsys, "s/runs/r")
	if err != nil {
		t.Fatal(err)
	}
	if data, err := fs.ReadFile(sub, "run.yaml"); err != nil || string(data) != "name: r\n" {
		t.Fatalf("ReadFile of Sub = %q, %v", data, err)
	}
	// Listing shows links and special files for what they are, in name
	// order; Check names each.
	var got []string
	within(t, func() {
		entries, err := fs.ReadDir(sub, ".")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			s := e.Name()
			if err := safefs.Check("results/s/runs/r/"+e.Name(), e.Type()); err != nil {
				s += " " + err.Error()
			}
			got = append(got, s)
		}
	})
	want := []string{
		"in.log open results/s/runs/r/in.log: is a symbolic link, which perflab never follows: replace it with the file or folder itself",
		"out.log open results/s/runs/r/out.log: is a symbolic link, which perflab never follows: replace it with the file or folder itself",
		"pipe.log open results/s/runs/r/pipe.log: is a named pipe, not a regular file: remove it",
		"run.yaml",
		"sock.log open results/s/runs/r/sock.log: is a socket, not a regular file: remove it",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("listing:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// fs.WalkDir never enters a linked folder.
	var walked []string
	within(t, func() {
		fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			walked = append(walked, p)
			return nil
		})
	})
	for _, p := range walked {
		if strings.HasPrefix(p, "evil/") || strings.HasPrefix(p, "s/runs/alias/") {
			t.Errorf("walked into a linked folder: %s", p)
		}
	}
}

func TestLinkedRoot(t *testing.T) {
	dir := hostile(t)
	link := filepath.Join(t.TempDir(), "templates")
	if err := os.Symlink(filepath.Join(dir, "s"), link); err != nil {
		t.Fatal(err)
	}
	_, err := safefs.New(link, "templates").ReadFile("study.yaml")
	if r, file := safefs.Refused(err); r == nil || file != "templates" {
		t.Errorf("a linked root folder: %v, want a refusal of templates", err)
	}
}

// TestDevice: a device node (root may make one) is refused unopened.
func TestDevice(t *testing.T) {
	dir := t.TempDir()
	// /dev/null's numbers: opening it would not block, but is refused.
	if err := syscall.Mknod(filepath.Join(dir, "null.log"), syscall.S_IFCHR|0o644, 1<<8|3); err != nil {
		t.Skipf("cannot make a device node here: %v", err)
	}
	_, err := safefs.New(dir, "results").ReadFile("null.log")
	if r, file := safefs.Refused(err); r == nil || file != "results/null.log" || r.Error() != "is a device, not a regular file: remove it" {
		t.Errorf("a device: %v", err)
	}
}

func TestMissing(t *testing.T) {
	fsys := safefs.New(filepath.Join(t.TempDir(), "content"), "content")
	_, err := fs.ReadDir(fsys, "en")
	if !errors.Is(err, fs.ErrNotExist) || !os.IsNotExist(err) {
		t.Errorf("a missing folder: %v, want not-exist", err)
	}
	if !strings.Contains(err.Error(), "content") {
		t.Errorf("error %q does not name content", err)
	}
	fsys = safefs.New(hostile(t), "results")
	_, err = fsys.ReadFile("s/nothing.yaml")
	if !errors.Is(err, fs.ErrNotExist) || err.Error() != "open results/s/nothing.yaml: no such file or directory" {
		t.Errorf("a missing file: %v", err)
	}
}

// TestFS: on a tree of plain files and folders, the FS behaves as io/fs
// expects.
func TestFS(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755)
	os.WriteFile(filepath.Join(dir, "a", "b", "c.txt"), []byte("c"), 0o644)
	os.WriteFile(filepath.Join(dir, "x.txt"), []byte("x"), 0o644)
	if err := fstest.TestFS(safefs.New(dir, "results"), "a/b/c.txt", "x.txt"); err != nil {
		t.Fatal(err)
	}
}

// NewObserved reports every file ReadFile reads, through sub-trees too,
// named as errors name it; a file that is not read is not reported.
func TestObserved(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755)
	os.WriteFile(filepath.Join(dir, "a", "b", "c.txt"), []byte("c"), 0o644)
	os.WriteFile(filepath.Join(dir, "x.txt"), []byte("x"), 0o644)
	seen := map[string]string{}
	fsys := safefs.NewObserved(dir, "results", func(file string, data []byte) { seen[file] = string(data) })
	if _, err := fsys.ReadFile("x.txt"); err != nil {
		t.Fatal(err)
	}
	sub, err := fs.Sub(fsys, "a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fs.ReadFile(sub, "b/c.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := fsys.ReadFile("missing.txt"); err == nil {
		t.Fatal("a missing file was read")
	}
	if want := map[string]string{"results/x.txt": "x", "results/a/b/c.txt": "c"}; !maps.Equal(seen, want) {
		t.Errorf("seen %v, want %v", seen, want)
	}
}
