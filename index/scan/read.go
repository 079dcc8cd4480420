package scan

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/safepath"
)

// File is one file read from the working tree: its content, or why it is
// not a document (Skip), with its blob id when that could be had.
type File struct {
	Content []byte // nil when skipped
	OID     string // git blob id of the content ("" when unread)
	Skip    string // why the file is not a document ("" when it is)
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

// LinkedSuffix ends the reason a symbolic link inside the repository is
// skipped (LinkedTarget reads it back).
const LinkedSuffix = "; canon indexes that file itself"

// LinkedTarget is the repository path a skipped symbolic link points to,
// read from its reason or from the problem that carries the reason; ok is
// false for any other.
func LinkedTarget(reason string) (string, bool) {
	_, rest, ok := strings.Cut(reason, "is a symbolic link to ")
	if !ok {
		return "", false
	}
	return strings.CutSuffix(rest, LinkedSuffix)
}

// Read reads one file of the working tree at root: its content, or why
// it is not a document (a symbolic link, over max_file_size, unreadable),
// with its blob id where that can be had. ok is false when the file
// vanished. index.Loader.Load parses what it reads.
func Read(root string, cfg *config.Config, fi FileInfo) (f File, ok bool) {
	abs := filepath.Join(root, filepath.FromSlash(fi.Path))
	if fi.Symlink {
		target, err := filepath.EvalSymlinks(abs)
		rootReal, rerr := filepath.EvalSymlinks(root)
		switch {
		case err != nil:
			f.Skip = "is a symbolic link to a file that does not exist"
		case rerr == nil && !safepath.Within(rootReal, target):
			f.Skip = "is a symbolic link to a file outside the repository; canon reads only files inside it"
		default:
			rel, _ := filepath.Rel(rootReal, target)
			f.Skip = "is a symbolic link to " + filepath.ToSlash(rel) + LinkedSuffix
			if !IsMarkdown(rel) {
				f.Skip = "is a symbolic link to " + filepath.ToSlash(rel) + ", which is not a Markdown file"
			}
		}
		f.OID = BlobOID([]byte(readLinkOr(abs)))
		return f, true
	}
	if fi.Size > int64(cfg.MaxFileSize) {
		f.Skip = OverSizeCap(cfg, fi.Size)
		f.OID = hashFile(abs, root)
		return f, true
	}
	content, err := safepath.ReadFile(abs, int64(cfg.MaxFileSize), root)
	var big *safepath.TooLargeError
	switch {
	case os.IsNotExist(err):
		return File{}, false
	case errors.As(err, &big): // it grew since it was listed
		f.Skip = fmt.Sprintf("is over the %s size cap (max_file_size in %s)", cfg.MaxFileSize, config.File)
		f.OID = hashFile(abs, root)
		return f, true
	case err != nil:
		f.Skip = "cannot be read: " + err.Error()
		return f, true
	}
	f.Content = content
	return f, true
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

// Unreadable is why content cannot be a document (binary, not UTF-8), ""
// when it can be.
func Unreadable(content []byte) string {
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

// OverSizeCap is the skip reason of a document of size bytes, over
// max_file_size: "" when it is not over.
func OverSizeCap(cfg *config.Config, size int64) string {
	if size <= int64(cfg.MaxFileSize) {
		return ""
	}
	return fmt.Sprintf("is %s, over the %s size cap (max_file_size in %s)", humanBytes(size), cfg.MaxFileSize, config.File)
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
