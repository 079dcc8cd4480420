//go:build linux && (amd64 || arm64)

package scan

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/canon-md/canon/index/safepath"
)

// maxWalkers bounds the goroutines a walk reads folders on: the kernel's
// getdents and fstatat take most of a walk's time, and they scale with
// the cores that run them.
const maxWalkers = 4

// walkTree lists the documents in the folder rel (not ignored) and in its
// folders, in path order, as walkDir does, at a cost close to the
// kernel's own: each folder is read with getdents64 into one buffer, its
// files are stat'ed with fstatat by the names in that buffer (no path
// built for a stat, no os.FileInfo), the paths of one folder's documents
// are one string, and folders are read on up to maxWalkers goroutines
// (TestTreeWalkMatchesWalkDir holds it to walkDir).
func (s *Scope) walkTree(rel string, out *[]FileInfo) error {
	t := &treeWalk{s: s, unknownTypes: s.direntTypesUnknown}
	t.cond = sync.NewCond(&t.qmu)
	root := &folder{rel: rel, abs: filepath.Join(s.root, filepath.FromSlash(rel))}
	t.queue, t.pending = []*folder{root}, 1
	// The caller reads folders too: one goroutine fewer to hand off to.
	var wg sync.WaitGroup
	for range min(maxWalkers, runtime.GOMAXPROCS(0)) - 1 {
		wg.Go(t.work)
	}
	t.work()
	wg.Wait()
	n, err := count(root)
	if err != nil {
		return err
	}
	*out = slices.Grow(*out, n)
	t.emit(root, out)
	return nil
}

// treeWalk is one walkTree: a queue of folders to read, shared by its
// goroutines.
type treeWalk struct {
	s       *Scope
	rulesMu sync.Mutex // guards s's ignore rules, worked out as folders are met

	qmu     sync.Mutex
	cond    *sync.Cond
	queue   []*folder
	pending int // folders queued or being read

	unknownTypes bool // a test's: treat every entry as DT_UNKNOWN
}

// folder is one folder's part of the walk, filled by the goroutine that
// read it: its documents in path order, and its folders with the index
// in files they come before.
type folder struct {
	rel, abs string
	files    []FileInfo
	subs     []*folder
	subAt    []int
	debris   []string
	err      error
}

// work reads folders from the queue, queueing the folders in each, until
// every folder is read. A folder that cannot be read keeps its error, for
// count to return in path order.
func (t *treeWalk) work() {
	var sc scratch
	for {
		t.qmu.Lock()
		for len(t.queue) == 0 && t.pending > 0 {
			t.cond.Wait()
		}
		if t.pending == 0 {
			t.qmu.Unlock()
			return
		}
		f := t.queue[len(t.queue)-1]
		t.queue = t.queue[:len(t.queue)-1]
		t.qmu.Unlock()

		t.read(f, &sc)

		t.qmu.Lock()
		t.queue = append(t.queue, f.subs...)
		t.pending += len(f.subs) - 1
		if len(f.subs) > 1 || t.pending == 0 {
			t.cond.Broadcast() // work for the others, or the end
		}
		t.qmu.Unlock()
	}
}

// count returns how many documents the folders under f (all read) hold,
// or the first error in path order.
func count(f *folder) (int, error) {
	if f.err != nil {
		return 0, f.err
	}
	n := len(f.files)
	for _, sub := range f.subs {
		k, err := count(sub)
		if err != nil {
			return 0, err
		}
		n += k
	}
	return n, nil
}

// emit appends the documents under f (all read) in path order, and the
// debris to the scope's.
func (t *treeWalk) emit(f *folder, out *[]FileInfo) {
	t.s.debris = append(t.s.debris, f.debris...)
	prev := 0
	for i, sub := range f.subs {
		*out = append(*out, f.files[prev:f.subAt[i]]...)
		prev = f.subAt[i]
		t.emit(sub, out)
	}
	*out = append(*out, f.files[prev:]...)
}

// entry is one listed name worth a look: a folder, or a Markdown file.
type entry struct {
	path    string // rel/name, a folder's with a trailing "/": its sort key
	name, n int32  // the name's offset and length in the listing (NUL-terminated there)
	dir     bool
}

// read fills f from its folder's listing, read into the worker's
// scratch (grown as needed, kept for the next folder).
func (t *treeWalk) read(f *folder, sc *scratch) {
	flags := unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC
	if f.rel != "" {
		// The folder itself swapped for a link since its parent was read;
		// a parent swapped meanwhile is not caught (the path is absolute),
		// but only names and stats come out: reads go through safepath.
		flags |= unix.O_NOFOLLOW
	}
	fd, err := openRetry(f.abs, flags)
	if err != nil {
		if f.rel == "" || !errors.Is(err, unix.ENOENT) && !errors.Is(err, unix.ENOTDIR) && !errors.Is(err, unix.ELOOP) {
			f.err = &fs.PathError{Op: "open", Path: f.abs, Err: err}
		}
		return // else a folder removed between its parent's listing and now
	}
	defer unix.Close(fd)
	sc.buf, err = readDirents(fd, sc.buf)
	if err != nil {
		f.err = &fs.PathError{Op: "readdirent", Path: f.abs, Err: err}
		return
	}
	nested, hasIgnore := t.entries(f, fd, sc)
	if nested {
		return // its own repository, whose files are not ours, or a damaged listing (f.err)
	}
	t.rulesMu.Lock()
	if _, ok := t.s.perDir[f.rel]; !ok && !hasIgnore {
		t.s.perDir[f.rel] = nil // no .gitignore in the listing: none to open
	}
	var rules *folderRules
	kept := sc.ents[:0]
	skip := len(f.rel) + skipSlash(f.rel)
	for _, e := range sc.ents {
		if e.dir {
			if !t.s.Ignored(e.path[:len(e.path)-1], true) {
				kept = append(kept, e)
			}
			continue
		}
		if rules == nil {
			rules = t.s.fileRules(f.rel)
		}
		if !rules.ignored(f.rel, e.path[skip:]) {
			kept = append(kept, e)
		}
	}
	t.rulesMu.Unlock()
	t.stat(f, fd, sc.buf, kept)
}

// scratch is what a worker reuses from one folder to the next.
type scratch struct {
	buf  []byte
	ents []entry
}

// skipSlash is how many bytes separate a folder's path from its entries'
// names in their paths.
func skipSlash(rel string) int {
	if rel == "" {
		return 0
	}
	return 1
}

// stat fills f's files and folders from the kept entries, sorted.
func (t *treeWalk) stat(f *folder, fd int, buf []byte, kept []entry) {
	skip := len(f.rel) + skipSlash(f.rel) // every path starts with the same folder
	slices.SortFunc(kept, func(a, b entry) int { return strings.Compare(a.path[skip:], b.path[skip:]) })
	nf := 0
	for _, e := range kept {
		if !e.dir {
			nf++
		}
	}
	f.files = make([]FileInfo, 0, nf)
	for _, e := range kept {
		if e.dir {
			f.subAt = append(f.subAt, len(f.files))
			rel := e.path[:len(e.path)-1]
			f.subs = append(f.subs, &folder{rel: rel, abs: f.abs + "/" + rel[skip:]})
			continue
		}
		fi, ok := fstatat(fd, buf[e.name:])
		if !ok {
			continue // vanished between listing and stat, or a folder now
		}
		fi.Path = e.path
		fi.MtimeNs = t.s.Stamped(fi.Path, fi.MtimeNs)
		f.files = append(f.files, fi)
	}
}

// entries parses the listing in sc.buf into sc.ents: the folders and
// Markdown files in it, with their paths (one string for the folder).
// canon's temporary files go to f.debris. nested is true, and the entries
// left out, when the folder is a repository of its own (or its listing is
// damaged: f.err says so); hasIgnore when a .gitignore is listed.
func (t *treeWalk) entries(f *folder, fd int, sc *scratch) (nested, hasIgnore bool) {
	prefix := f.rel
	if prefix != "" {
		prefix += "/"
	}
	buf := sc.buf
	ents := sc.ents[:0]
	size := 0
	for off := 0; off < len(buf); {
		if off+19 >= len(buf) {
			f.err = &fs.PathError{Op: "readdirent", Path: f.abs, Err: unix.EIO} // a fragment shorter than a record's header
			return true, false
		}
		reclen := int(binary.NativeEndian.Uint16(buf[off+16:]))
		if reclen <= 19 || off+reclen > len(buf) {
			f.err = &fs.PathError{Op: "readdirent", Path: f.abs, Err: unix.EIO} // not a record the kernel writes
			return true, false
		}
		typ := buf[off+18]
		name := buf[off+19 : off+reclen]
		k := bytes.IndexByte(name, 0)
		if k <= 0 {
			f.err = &fs.PathError{Op: "readdirent", Path: f.abs, Err: unix.EIO}
			return true, false
		}
		name = name[:k]
		e := entry{name: int32(off + 19), n: int32(len(name))}
		off += reclen
		if string(name) == "." || string(name) == ".." {
			continue
		}
		switch string(name) {
		case ".git":
			if f.rel != "" {
				sc.ents = ents[:0]
				f.debris = nil // another repository's files: never canon's to remove
				return true, false
			}
		case ".gitignore":
			hasIgnore = true
		}
		if typ == unix.DT_UNKNOWN || t.unknownTypes {
			_, ok, isDir := fstatatType(fd, buf[e.name:])
			if !ok {
				continue // gone since
			}
			e.dir = isDir
		} else {
			e.dir = typ == unix.DT_DIR
		}
		if !e.dir {
			if name[0] == '.' && bytes.Contains(name, []byte(".canon-tmp-")) {
				if _, ok := safepath.IsTemp(string(name)); ok {
					f.debris = append(f.debris, f.abs+"/"+string(name))
					continue
				}
			}
			if !isMarkdownName(name) {
				continue
			}
		}
		ents = append(ents, e)
		size += len(prefix) + len(name) + 1
	}
	var b strings.Builder
	b.Grow(size)
	for _, e := range ents {
		b.WriteString(prefix)
		b.Write(buf[e.name : e.name+e.n])
		if e.dir {
			b.WriteByte('/')
		}
	}
	all := b.String()
	at := 0
	for i := range ents {
		n := len(prefix) + int(ents[i].n)
		if ents[i].dir {
			n++
		}
		ents[i].path = all[at : at+n]
		at += n
	}
	sc.ents = ents
	return false, hasIgnore
}

// isMarkdownName is IsMarkdown of a name: it ends in ".md", in any case.
func isMarkdownName(name []byte) bool {
	n := len(name)
	return n >= 3 && name[n-3] == '.' && name[n-2]|0x20 == 'm' && name[n-1]|0x20 == 'd'
}

// readDirents reads the whole listing of the open folder fd into buf.
func readDirents(fd int, buf []byte) ([]byte, error) {
	buf = buf[:0]
	for {
		if cap(buf)-len(buf) < 1<<13 {
			buf = slices.Grow(buf, max(1<<15, cap(buf)))
		}
		n, err := unix.Getdents(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return buf, err
		}
		if n <= 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

func openRetry(path string, flags int) (int, error) {
	for {
		fd, err := unix.Open(path, flags, 0)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

// fstatat is an lstat of the NUL-terminated name at the start of name,
// relative to the folder fd; Path is left empty, and a folder is not ok.
func fstatat(fd int, name []byte) (FileInfo, bool) {
	fi, ok, isDir := fstatatType(fd, name)
	return fi, ok && !isDir
}

func fstatatType(fd int, name []byte) (fi FileInfo, ok, isDir bool) {
	var st unix.Stat_t
	for {
		// The name is passed as it lies in the listing, NUL-terminated:
		// no string, no copy.
		_, _, e := unix.Syscall6(unix.SYS_NEWFSTATAT, uintptr(fd), uintptr(unsafe.Pointer(&name[0])),
			uintptr(unsafe.Pointer(&st)), unix.AT_SYMLINK_NOFOLLOW, 0, 0)
		if e == unix.EINTR {
			continue
		}
		if e != 0 {
			return FileInfo{}, false, false
		}
		break
	}
	mode := st.Mode & unix.S_IFMT
	return FileInfo{Size: st.Size, MtimeNs: st.Mtim.Sec*1e9 + st.Mtim.Nsec, Symlink: mode == unix.S_IFLNK}, true, mode == unix.S_IFDIR
}
