package safepath

import (
	"errors"
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	base := t.TempDir()
	repo := filepath.Join(base, "repo")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{repo + "/docs", outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(repo, name)); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(repo, "docs", "a.md"), "inside")
	write(filepath.Join(repo, "big"), strings.Repeat("x", 100))
	write(filepath.Join(outside, "secret"), "TOKEN=hunter2")
	link("docs/a.md", "inside-link")
	link(filepath.Join(outside, "secret"), "secret-link")
	link("../outside", "dir-out")
	link("/dev/zero", "zero")
	link("/proc/self/environ", "environ")
	link("docs", "a-folder")
	if err := syscall.Mkfifo(filepath.Join(repo, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, fd := range []bool{true, false} {
		procFD = fd
		for _, tt := range []struct {
			name string
			want string // "" reads "inside"
			err  any
		}{
			{"docs/a.md", "inside", nil},
			{"inside-link", "inside", nil},
			{"secret-link", "", new(*OutsideError)},
			{"dir-out/secret", "", new(*OutsideError)},
			{"environ", "", new(*OutsideError)},
			{"zero", "", new(*NotRegularError)},
			{"fifo", "", new(*NotRegularError)},
			{"a-folder", "", new(*NotRegularError)},
			{"big", "", new(*TooLargeError)},
			{"missing", "", nil},
		} {
			data, err := ReadFile(filepath.Join(repo, tt.name), 50, repo)
			switch {
			case tt.name == "missing":
				if !os.IsNotExist(err) {
					t.Errorf("%s (procFD %v): %v, want not exist", tt.name, fd, err)
				}
			case tt.err == nil:
				if err != nil || string(data) != tt.want {
					t.Errorf("%s (procFD %v): %q, %v", tt.name, fd, data, err)
				}
			default:
				if !errors.As(err, tt.err) {
					t.Errorf("%s (procFD %v): %v, want %T", tt.name, fd, err, tt.err)
				}
				if data != nil || err != nil && strings.Contains(err.Error(), "hunter2") {
					t.Errorf("%s: read %q (%v)", tt.name, data, err)
				}
			}
		}
	}
	procFD = true
	// The messages name the file, the link, the limit and the fix.
	_, err := ReadFile(filepath.Join(repo, "secret-link"), 50, repo)
	if want := "secret-link is a symbolic link to " + filepath.Join(outside, "secret") + ", outside the repository; canon reads nothing outside it: replace the link with the file itself"; err == nil || err.Error() != want {
		t.Errorf("outside: %v", err)
	}
	_, err = ReadFile(filepath.Join(repo, "dir-out", "secret"), 50, repo)
	if want := "dir-out/secret leads outside the repository through the symbolic link dir-out (to " + outside + "); canon reads nothing outside it"; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("outside through a folder: %v", err)
	}
	_, err = ReadFile(filepath.Join(repo, "big"), 50, repo)
	if err == nil || !strings.Contains(err.Error(), "big is larger than 50 bytes") {
		t.Errorf("too large: %v", err)
	}
	_, err = ReadFile(filepath.Join(repo, "zero"), ConfigLimit, repo)
	if err == nil || !strings.Contains(err.Error(), "zero is a character device, not a regular file") {
		t.Errorf("device: %v", err)
	}
	// A file that says it is small and is not: cut at the limit.
	if data, err := ReadArgument("/proc/self/status", 10); err == nil {
		t.Errorf("/proc/self/status over 10 bytes read whole: %q", data)
	} else if !errors.As(err, new(*TooLargeError)) {
		t.Errorf("/proc/self/status: %v", err)
	}
	// The user's own argument may lie outside, bounded all the same.
	if data, err := ReadArgument(filepath.Join(outside, "secret"), 50); err != nil || string(data) != "TOKEN=hunter2" {
		t.Errorf("argument: %q, %v", data, err)
	}
	if _, err := ReadArgument("/dev/zero", 50); !errors.As(err, new(*NotRegularError)) {
		t.Errorf("argument /dev/zero: %v", err)
	}
	if _, err := ReadFile(filepath.Join(repo, "docs/a.md"), 50); err == nil {
		t.Error("ReadFile without roots read")
	}
	// A second root: the git folder of a linked worktree.
	if data, err := ReadFile(filepath.Join(repo, "secret-link"), 50, repo, outside); err != nil || string(data) != "TOKEN=hunter2" {
		t.Errorf("second root: %q, %v", data, err)
	}
}

// A file growing past what fstat said is still cut at the limit.
func TestReadBoundedGrows(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte(strings.Repeat("y", 5000)), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	small, _ := os.Stat(os.DevNull) // a size of 0, like a /proc file
	if _, err := readBounded(f, small, p, 4999); !errors.As(err, new(*TooLargeError)) {
		t.Errorf("over: %v", err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		t.Fatal(err)
	}
	if data, err := readBounded(f, small, p, 5000); err != nil || len(data) != 5000 {
		t.Errorf("at the limit: %d, %v", len(data), err)
	}
}

// BenchmarkReadFile compares a document read through ReadFile with
// os.ReadFile: the proofs cost a stat and a readlink of /proc.
func BenchmarkReadFile(b *testing.B) {
	root := b.TempDir()
	p := filepath.Join(root, "docs", "deep", "a.md")
	must.OK(b, os.MkdirAll(filepath.Dir(p), 0o755))
	must.OK(b, os.WriteFile(p, []byte(strings.Repeat("# A document\n\nSome text.\n", 100)), 0o644))
	b.Run("os.ReadFile", func(b *testing.B) {
		for b.Loop() {
			if _, err := os.ReadFile(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("safepath.ReadFile", func(b *testing.B) {
		for b.Loop() {
			if _, err := ReadFile(p, ConfigLimit, root); err != nil {
				b.Fatal(err)
			}
		}
	})
}
