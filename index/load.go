package index

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/resolve"
	"github.com/canon-md/canon/index/safepath"
)

// Loaded is one file read from the working tree: hashed, and parsed unless it
// had to be skipped.
type Loaded struct {
	FileInfo
	OID  string             // git blob id of the content
	Skip string             // why the file is not a document ("" when it is)
	Doc  *markdown.Document // nil when skipped
	rows *docRows           // Doc as stored, prepared where it was parsed
}

// Loader reads and parses files for one configuration.
type Loader struct {
	Root string
	Cfg  *config.Config
	opts markdown.Options
}

// NewLoader prepares a loader for the worktree at root.
func NewLoader(root string, cfg *config.Config) *Loader {
	return &Loader{Root: root, Cfg: cfg, opts: markdown.Options{Edges: cfg.Edges, Kinds: cfg.DocKinds(), TextFields: cfg.Frontmatter.TextFields}}
}

// BlobOID is git's object id of a blob with this content (SHA-1).
func BlobOID(content []byte) string {
	h := sha1.New()
	h.Write([]byte("blob "))
	h.Write([]byte(strconv.Itoa(len(content))))
	h.Write([]byte{0})
	h.Write(content)
	return hex.EncodeToString(h.Sum(nil))
}

// linkedSuffix ends the reason a symbolic link inside the repository is
// skipped (LinkedTarget reads it back).
const linkedSuffix = "; canon indexes that file itself"

// LinkedTarget is the repository path a skipped symbolic link points to,
// read from its reason or from the problem that carries the reason; ok is
// false for any other.
func LinkedTarget(reason string) (string, bool) {
	_, rest, ok := strings.Cut(reason, "is a symbolic link to ")
	if !ok {
		return "", false
	}
	return strings.CutSuffix(rest, linkedSuffix)
}

// Load reads one file. It never fails: a file that cannot be a document comes
// back with Skip set, and one that vanished comes back nil.
func (l *Loader) Load(fi FileInfo) *Loaded {
	abs := filepath.Join(l.Root, filepath.FromSlash(fi.Path))
	out := &Loaded{FileInfo: fi}
	if fi.Symlink {
		target, err := filepath.EvalSymlinks(abs)
		rootReal, rerr := filepath.EvalSymlinks(l.Root)
		switch {
		case err != nil:
			out.Skip = "is a symbolic link to a file that does not exist"
		case rerr == nil && !safepath.Within(rootReal, target):
			out.Skip = "is a symbolic link to a file outside the repository; canon reads only files inside it"
		default:
			rel, _ := filepath.Rel(rootReal, target)
			out.Skip = "is a symbolic link to " + filepath.ToSlash(rel) + linkedSuffix
			if !IsMarkdown(rel) {
				out.Skip = "is a symbolic link to " + filepath.ToSlash(rel) + ", which is not a Markdown file"
			}
		}
		out.OID = BlobOID([]byte(readLinkOr(abs)))
		return out
	}
	if fi.Size > int64(l.Cfg.MaxFileSize) {
		out.Skip = l.OverSizeCap(fi.Size)
		out.OID = hashFile(abs, l.Root)
		return out
	}
	content, err := safepath.ReadFile(abs, int64(l.Cfg.MaxFileSize), l.Root)
	var big *safepath.TooLargeError
	switch {
	case os.IsNotExist(err):
		return nil
	case errors.As(err, &big): // it grew since it was listed
		out.Skip = fmt.Sprintf("is over the %s size cap (max_file_size in %s)", l.Cfg.MaxFileSize, config.File)
		out.OID = hashFile(abs, l.Root)
		return out
	case err != nil:
		out.Skip = "cannot be read: " + err.Error()
		return out
	}
	return l.FromContent(fi, content)
}

// ReadDocument reads the document at the repository path rel (a path the
// index or a workset holds, which a repository's files can forge): proven
// inside the repository by its text and with its links followed, a
// regular file, at most the configured max_file_size (the default's with
// cfg nil).
func ReadDocument(root string, cfg *config.Config, rel string) ([]byte, error) {
	c, err := safepath.CleanRel(rel)
	if err != nil {
		return nil, err
	}
	if cfg == nil {
		cfg = config.Default()
	}
	return safepath.ReadFile(filepath.Join(root, filepath.FromSlash(c)), int64(cfg.MaxFileSize), root)
}

// FromContent parses content given rather than read: a staged blob, which
// canon check validates before it is committed.
func (l *Loader) FromContent(fi FileInfo, content []byte) *Loaded {
	out := l.Fields(fi, content)
	if out.Doc != nil {
		out.rows = prepareRows(fi.Path, out.Doc, content, resolve.PlannerOf(l.Cfg))
	}
	return out
}

// Fields parses content as FromContent does, without the rows the index
// would write (chunks, links): for a caller that keeps only the
// document's fields, such as the overlay of another ref.
func (l *Loader) Fields(fi FileInfo, content []byte) *Loaded {
	out := &Loaded{FileInfo: fi}
	out.Size = int64(len(content))
	out.OID = BlobOID(content)
	if out.Size > int64(l.Cfg.MaxFileSize) {
		out.Skip = l.OverSizeCap(out.Size)
		return out
	}
	if reason := unreadable(content); reason != "" {
		out.Skip = reason
		return out
	}
	out.Doc = markdown.Parse(fi.Path, content, &l.opts)
	return out
}

// At is the kind and state a document Fields parsed has at another path
// with the same content (markdown.PathFields.At), with this
// configuration's kinds: a blob that many paths name is parsed once.
func (l *Loader) At(f markdown.PathFields, path string) (kind, state string) {
	return f.At(path, l.opts.Kinds)
}

func unreadable(content []byte) string {
	head := content
	if len(head) > 8000 {
		head = head[:8000]
	}
	if bytes.IndexByte(head, 0) >= 0 {
		return "is binary (it holds NUL bytes), not Markdown"
	}
	if !utf8.Valid(content) {
		off := 0
		for off < len(content) {
			r, size := utf8.DecodeRune(content[off:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			off += size
		}
		line := 1 + bytes.Count(content[:off], []byte("\n"))
		return fmt.Sprintf("is not valid UTF-8 (first bad byte on line %d); save it as UTF-8", line)
	}
	return ""
}

// hashFile is the blob id of a file over the size cap, read as a stream:
// its size is what git hashes first, and the file is never held whole.
func hashFile(abs, root string) string {
	f, size, err := safepath.Open(abs, root)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", size)
	if n, err := io.Copy(h, io.LimitReader(f, size+1)); err != nil || n != size {
		return "" // it changed while read
	}
	return hex.EncodeToString(h.Sum(nil))
}

func readLinkOr(abs string) string {
	t, _ := os.Readlink(abs)
	return t
}

// Oversized is the document at fi (fi.Size its size) when its content,
// the blob oid, is over max_file_size and was not read.
func (l *Loader) Oversized(fi FileInfo, oid string) *Loaded {
	return &Loaded{FileInfo: fi, OID: oid, Skip: l.OverSizeCap(fi.Size)}
}

// OverSizeCap is the skip reason of a document of size bytes, over
// max_file_size: "" when it is not over.
func (l *Loader) OverSizeCap(size int64) string {
	if size <= int64(l.Cfg.MaxFileSize) {
		return ""
	}
	return fmt.Sprintf("is %s, over the %s size cap (max_file_size in %s)", humanBytes(size), l.Cfg.MaxFileSize, config.File)
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

// LoadAll loads files on every core and hands them to fn in the order given,
// so what is written next does not depend on scheduling. It stops at the
// first error fn returns or when ctx is done. fn should be quick: the
// updates that use it only collect what is loaded.
func (l *Loader) LoadAll(ctx context.Context, files []FileInfo, fn func(*Loaded) error) error {
	return l.loadAll(ctx, files, runtime.GOMAXPROCS(0), fn)
}

// loadAll is LoadAll on the given number of workers. A full build leaves one
// core to its consumer, which writes SQLite, the longest chain: a third busy
// thread on two cores only slows it.
func (l *Loader) loadAll(ctx context.Context, files []FileInfo, workers int, fn func(*Loaded) error) error {
	if workers < 1 {
		workers = 1
	}
	if workers > len(files) {
		workers = len(files)
	}
	if len(files) <= 1 {
		for _, fi := range files {
			if err := ctx.Err(); err != nil {
				return err
			}
			if ld := l.Load(fi); ld != nil {
				if err := fn(ld); err != nil {
					return err
				}
			}
		}
		return nil
	}
	// A window of slots bounds memory: workers run at most window files
	// ahead of the consumer.
	const window = 512
	type slot struct {
		ld   *Loaded
		done chan struct{}
	}
	slots := make([]slot, len(files))
	for i := range slots {
		slots[i].done = make(chan struct{})
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	next := make(chan int)
	tokens := make(chan struct{}, window)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				slots[i].ld = l.Load(files[i])
				close(slots[i].done)
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range files {
			select {
			case tokens <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	var err error
	for i := range files {
		select {
		case <-slots[i].done:
		case <-ctx.Done():
			err = ctx.Err()
		}
		if err != nil {
			break
		}
		ld := slots[i].ld
		slots[i].ld = nil
		<-tokens
		if ld != nil {
			if err = fn(ld); err != nil {
				break
			}
		}
	}
	// The feeder watches ctx, so cancelling lets it close next and the
	// workers finish what they hold.
	cancel()
	wg.Wait()
	return err
}
