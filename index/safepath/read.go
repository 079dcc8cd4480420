package safepath

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// The most canon reads of each kind of file. A repository is input from
// whoever wrote it: a file that is a link to /dev/zero, or a gigabyte of
// YAML, must end in a clear error, not in the memory of every hook. Each
// limit is far above what the kind of file holds in real use, and small
// enough that reading and parsing one costs a fraction of a second.
const (
	// ConfigLimit: .canon/config.yaml, .canon/queries/*.yaml, Kano's
	// backlog_config.toml and process profiles, hook scripts and hook
	// managers' configurations, .gitmodules. canon init's configuration
	// is 8 KB with every comment; 1 MiB of YAML still parses in
	// milliseconds, and a hook reads the configuration on every commit.
	ConfigLimit = 1 << 20
	// IgnoreLimit: .gitignore files and info/exclude. Some are generated,
	// one path a line: 4 MiB is about 80,000 paths.
	IgnoreLimit = 4 << 20
	// WorksetLimit: a workset's plan.md, notes.md, deliverable.md and
	// members.keys. members.keys of a workset holding all of 100,000
	// documents is about 4 MiB; notes grow with an agent's findings.
	WorksetLimit = 16 << 20
	// HandoffLimit: a hand-off file of workset export and import, which
	// holds plan.md and notes.md (each at most WorksetLimit) and the
	// resume.
	HandoffLimit = 64 << 20
)

// TooLargeError says a file is over the limit for its kind.
type TooLargeError struct {
	Path  string
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s, the most canon reads of such a file; make it smaller, or remove it if it is not yours", e.Path, sizeText(e.Limit))
}

// NotRegularError says a path is a device, a named pipe, a socket or a
// folder, where a file was expected: reading /dev/zero never ends, and
// reading a pipe waits for a writer.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file; canon reads only regular files: replace it (or the symbolic link it is) with the file itself", e.Path, modeText(e.Mode))
}

// ReadFile reads the file at path, proven a regular file inside one of the
// roots with every link on the way followed, and at most limit bytes long.
// Every file of a repository canon reads goes through here. A missing file
// gives the *fs.PathError of the open (os.IsNotExist holds).
//
// The checks and the read are one: the file is opened, the opened file is
// asked for its kind and size, and it is the opened file whose place is
// proven inside (where the system tells it), so a link swapped in between
// a check and the open changes nothing. A file that says it is small and
// is not (/proc files say 0) is cut at limit+1 bytes and refused.
func ReadFile(path string, limit int64, roots ...string) ([]byte, error) {
	if len(roots) == 0 {
		return nil, fmt.Errorf("read %s: no folder to read it inside (a bug in canon)", path)
	}
	f, fi, err := open(path, roots)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBounded(f, fi, shown(path, roots), limit)
}

// ReadArgument reads a file the user named on the command line (canon
// workset import FILE): it may lie anywhere, as the user chose it, but it
// is bounded and must be a regular file like any other.
func ReadArgument(path string, limit int64) ([]byte, error) {
	f, fi, err := open(path, nil)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readBounded(f, fi, path, limit)
}

// ReadListed reads a small file that a walk of a folder already proven
// inside the repository listed as a regular file (a loose ref under
// .git/refs, read by the hundred on every command that follows other
// branches): the name itself is opened, never followed if a link took its
// place, and the opened file must still be a regular one of at most limit
// bytes. Three system calls where ReadFile's proofs take seven.
func ReadListed(path string, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags|noFollow, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: fi.Mode()}
	}
	return readBounded(f, fi, path, limit)
}

// Open opens the file at path for reading with ReadFile's proofs (a
// regular file inside one of the roots), for a caller that streams it
// rather than holding it whole. The size is the opened file's.
func Open(path string, roots ...string) (*os.File, int64, error) {
	if len(roots) == 0 {
		return nil, 0, fmt.Errorf("open %s: no folder to read it inside (a bug in canon)", path)
	}
	f, fi, err := open(path, roots)
	if err != nil {
		return nil, 0, err
	}
	return f, fi.Size(), nil
}

func open(path string, roots []string) (*os.File, fs.FileInfo, error) {
	// What the path names now, before opening it: opening some devices
	// does something (a tape rewinds), so a link to one is refused
	// unopened. The opened file is checked again below.
	pre, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !pre.Mode().IsRegular() {
		return nil, nil, &NotRegularError{Path: shown(path, roots), Mode: pre.Mode()}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, &NotRegularError{Path: shown(path, roots), Mode: fi.Mode()}
	}
	if len(roots) > 0 {
		if err := openedInside(f, fi, path, roots); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	return f, fi, nil
}

// openedInside proves the opened file inside the roots: where the system
// says the descriptor leads (Linux's /proc/self/fd), else the path with
// its links resolved now, holding the very file that was opened.
func openedInside(f *os.File, fi fs.FileInfo, path string, roots []string) error {
	resolved, ok := fdPath(f)
	if !ok {
		var err error
		if resolved, err = filepath.EvalSymlinks(path); err != nil {
			return err
		}
		if resolved, err = filepath.Abs(resolved); err != nil {
			return err
		}
		now, err := os.Stat(resolved)
		if err != nil {
			return err
		}
		if !os.SameFile(fi, now) {
			return &OutsideError{Path: path, Roots: roots, Read: true}
		}
	}
	for _, r := range roots {
		if rr, err := realRoot(r); err == nil && Within(rr, resolved) {
			return nil
		}
	}
	// Name the link that leads out, if it is still there.
	if err := Inside(path, roots...); err != nil {
		return asRead(err)
	}
	return &OutsideError{Path: path, Roots: roots, Read: true}
}

// procFD is false where /proc/self/fd does not tell where a descriptor
// leads (tests turn it off to try the other way).
var procFD = true

// fdPath is where the system says an open file lies, links resolved.
func fdPath(f *os.File) (string, bool) {
	if !procFD {
		return "", false
	}
	sc, err := f.SyscallConn()
	if err != nil {
		return "", false
	}
	var p string
	cerr := sc.Control(func(fd uintptr) {
		p, err = os.Readlink(fmt.Sprintf("/proc/self/fd/%d", fd))
	})
	if cerr != nil || err != nil || !filepath.IsAbs(p) {
		return "", false
	}
	return p, true
}

// realRoots caches each root with its links resolved: a command reads
// many files under the same few roots.
var realRoots sync.Map // string → string

func realRoot(r string) (string, error) {
	if v, ok := realRoots.Load(r); ok {
		return v.(string), nil
	}
	abs, err := filepath.Abs(r)
	if err != nil {
		return "", err
	}
	resolved, err := resolve(abs)
	if err != nil {
		return "", err
	}
	if filepath.IsAbs(r) { // a relative one means another folder after a chdir
		realRoots.Store(r, resolved)
	}
	return resolved, nil
}

// shown is path as a message shows it: relative to the first root when
// it is under it.
func shown(path string, roots []string) string {
	if len(roots) == 0 {
		return path
	}
	return (&OutsideError{Roots: roots}).rel(path)
}

func asRead(err error) error {
	var oe *OutsideError
	if errors.As(err, &oe) {
		oe.Read = true
	}
	return err
}

func readBounded(f *os.File, fi fs.FileInfo, path string, limit int64) ([]byte, error) {
	if fi.Size() > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	// io.ReadAll sized for the file, reading one byte past the limit at
	// most: a file that said it was smaller grows the buffer as it comes.
	r := io.LimitReader(f, limit+1)
	buf := make([]byte, 0, fi.Size()+512)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", path, err)
		}
	}
	if int64(len(buf)) > limit {
		return nil, &TooLargeError{Path: path, Limit: limit}
	}
	return buf, nil
}

func sizeText(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

func modeText(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a regular file"
}
