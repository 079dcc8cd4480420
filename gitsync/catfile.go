package gitsync

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"

	"github.com/canon-md/canon/index"
)

// CatFile is one `git cat-file --batch` kept open: a check asks it for
// staged blobs, HEAD's blobs and whether HEAD has a path, and git opens the
// object store (the pack index: about 20 ms at 100k objects) once for all
// of them. It is started before it is needed, so that git's start-up runs
// beside the diff that says what to ask.
type CatFile struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr bytes.Buffer
	mu     sync.Mutex
	err    error // the first failure: every later call returns it
}

// StartCatFile starts git cat-file --batch in the repository with the
// scrubbed environment (a hook's GIT_INDEX_FILE has no business here: it
// reads objects, not the index).
func (r *Repo) StartCatFile(ctx context.Context) (*CatFile, error) {
	cmd := exec.CommandContext(ctx, "git", "-C", r.Root, "cat-file", "--batch")
	cmd.Env = ScrubbedEnv()
	c := &CatFile{cmd: cmd}
	cmd.Stderr = &c.stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("git cat-file --batch: %w", err)
	}
	c.in, c.out = in, bufio.NewReaderSize(out, 64<<10)
	return c, nil
}

// Object returns the content and type of the object a revision names (an
// object id, or "HEAD:path"); found is false when there is none.
func (c *CatFile) Object(spec string) (content []byte, typ string, found bool, err error) {
	return c.objectUpTo(spec, 0)
}

// objectUpTo is Object, reading at most limit bytes (0: no limit): a larger
// object is passed over unread (git's answer is discarded, so the next
// question still gets its own) and comes back as a *BlobTooLargeError.
func (c *CatFile) objectUpTo(spec string, limit int64) (content []byte, typ string, found bool, err error) {
	if strings.ContainsAny(spec, "\n") {
		return nil, "", false, fmt.Errorf("git cat-file: %q holds a newline", spec)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return nil, "", false, c.err
	}
	content, typ, found, err = c.object(spec, limit)
	var big *BlobTooLargeError
	if errors.As(err, &big) {
		return nil, typ, true, err
	}
	if err != nil {
		c.err = fmt.Errorf("git cat-file --batch: %w%s", err, c.stderrNote())
	}
	return content, typ, found, c.err
}

func (c *CatFile) object(spec string, limit int64) ([]byte, string, bool, error) {
	if _, err := io.WriteString(c.in, spec+"\n"); err != nil {
		return nil, "", false, err
	}
	header, err := c.out.ReadString('\n')
	if err != nil {
		return nil, "", false, err
	}
	header = strings.TrimSuffix(header, "\n")
	// "<spec> missing", "<spec> ambiguous", or "<oid> <type> <size>".
	if strings.HasSuffix(header, " missing") || strings.HasSuffix(header, " ambiguous") {
		return nil, "", false, nil
	}
	fields := strings.Fields(header)
	if len(fields) != 3 {
		return nil, "", false, fmt.Errorf("unexpected answer %q", header)
	}
	size, err := strconv.ParseInt(fields[2], 10, 64)
	if err != nil || size < 0 {
		return nil, "", false, fmt.Errorf("unexpected answer %q", header)
	}
	if limit > 0 && size > limit {
		if _, err := io.CopyN(io.Discard, c.out, size+1); err != nil {
			return nil, "", false, err
		}
		return nil, fields[1], true, &BlobTooLargeError{OID: fields[0], Size: size}
	}
	buf := make([]byte, size+1) // the content and its newline
	if _, err := io.ReadFull(c.out, buf); err != nil {
		return nil, "", false, err
	}
	return buf[:size], fields[1], true, nil
}

func (c *CatFile) stderrNote() string {
	if s := strings.TrimSpace(c.stderr.String()); s != "" {
		return " (" + s + ")"
	}
	return ""
}

// Blob returns a blob's content by object id, reading at most limit bytes
// (0: no limit): a larger blob is a *BlobTooLargeError, not read.
func (c *CatFile) Blob(oid string, limit int64) ([]byte, error) {
	if !index.IsObjectID(oid) {
		return nil, fmt.Errorf("%w: %q", ErrNotObjectID, oid)
	}
	data, typ, found, err := c.objectUpTo(oid, limit)
	if err != nil {
		return nil, err
	}
	if !found || typ != "blob" {
		return nil, fmt.Errorf("git has no blob %s", oid)
	}
	return data, nil
}

// BlobTooLargeError is a blob over the size a reader asked for: it was
// not read.
type BlobTooLargeError struct {
	OID  string
	Size int64
}

func (e *BlobTooLargeError) Error() string {
	return fmt.Sprintf("blob %s is %d bytes, more than canon reads", e.OID, e.Size)
}

// Close ends git cat-file.
func (c *CatFile) Close() error {
	if c == nil {
		return nil
	}
	c.in.Close()
	return c.cmd.Wait()
}
