package safepath

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The journal's file: written once, atomically, and read back bounded and
// proven before anything in it is applied.

// A journal's file: the magic line, the length of the manifest in
// decimal and a newline, the manifest (JSON), then the contents the
// manifest points into, one after the other.
type manifest struct {
	Version int             `json:"version"`
	PID     int             `json:"pid"`
	What    string          `json:"what"`
	Record  json.RawMessage `json:"record,omitempty"`
	Files   []journalFile   `json:"files"`
}

type journalFile struct {
	Path   string `json:"path"`
	Mode   uint32 `json:"mode,omitempty"` // the permissions of the file before
	Before *blob  `json:"before,omitempty"`
	After  *blob  `json:"after,omitempty"`
}

type blob struct {
	SHA string `json:"sha256"`
	Off int64  `json:"off"`
	Len int64  `json:"len"`
}

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// writeJournal writes the journal of changes atomically (a temporary
// file, synced, renamed, the folder synced) and returns its name.
func (j *Journal) writeJournal(what string, record []byte, changes []Change, modes []os.FileMode) (string, error) {
	m := manifest{Version: 1, PID: os.Getpid(), What: what, Files: make([]journalFile, len(changes))}
	if len(record) > 0 {
		if !json.Valid(record) {
			return "", errors.New("the record is not JSON (a bug in canon)")
		}
		m.Record = record
	}
	var blobs [][]byte
	var off int64
	ref := func(b []byte) *blob {
		r := &blob{SHA: sum(b), Off: off, Len: int64(len(b))}
		off += r.Len
		blobs = append(blobs, b)
		return r
	}
	for i, c := range changes {
		f := journalFile{Path: c.Path}
		if !c.Absent {
			f.Before = ref(c.Before)
			f.Mode = uint32(modes[i].Perm())
		}
		if !c.Remove {
			f.After = ref(c.After)
		}
		m.Files[i] = f
	}
	js, err := json.Marshal(m)
	if err != nil {
		return "", err
	}
	if len(js) > JournalManifestLimit || int64(len(journalMagic)+21+len(js))+off > JournalFileLimit {
		return "", fmt.Errorf("the %d files are more than a journal holds (%s, their list at most %s); change fewer files at once", len(changes), sizeText(JournalFileLimit), sizeText(JournalManifestLimit))
	}
	name := fmt.Sprintf("%020d-%d%s", time.Now().UnixNano(), os.Getpid(), JournalExt)
	p := filepath.Join(j.Dir, name)
	err = writeStream(p, 0o600, j.Guard, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<16)
		bw.WriteString(journalMagic)
		bw.WriteString(strconv.Itoa(len(js)) + "\n")
		bw.Write(js)
		for _, b := range blobs {
			bw.Write(b)
		}
		return bw.Flush()
	})
	if err != nil {
		return "", err
	}
	syncDir(j.Dir)
	return name, nil
}

// loaded is a journal read and proven: its manifest, and the open file
// its contents are read from.
type loaded struct {
	m    manifest
	f    *os.File
	data int64 // where the contents start
}

func (l *loaded) content(b *blob) ([]byte, error) {
	buf := make([]byte, b.Len)
	if _, err := l.f.ReadAt(buf, l.data+b.Off); err != nil {
		return nil, fmt.Errorf("read the journal: %w", err)
	}
	if sum(buf) != b.SHA {
		return nil, errors.New("a file's content does not match its hash")
	}
	return buf, nil
}

// load reads a journal's file and proves it as canon writes it: the
// magic line, a bounded manifest that decodes strictly, a command of one
// plain line, every path one checkPath takes and named once, every
// content inside the file and matching its hash. Any failure is a
// damaged journal.
func (j *Journal) load(p string) (*loaded, error) {
	f, size, err := Open(p, j.Guard...)
	if err != nil {
		return nil, err
	}
	l := &loaded{f: f}
	if err := l.read(j, size); err != nil {
		f.Close()
		return nil, err
	}
	return l, nil
}

func (l *loaded) read(j *Journal, size int64) error {
	br := bufio.NewReaderSize(io.LimitReader(l.f, int64(len(journalMagic))+24+JournalManifestLimit), 1<<16)
	magic := make([]byte, len(journalMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != journalMagic {
		return errors.New("it does not begin as a journal of canon's")
	}
	line, err := br.ReadSlice('\n')
	if err != nil || len(line) > 21 {
		return errors.New("its length line is missing or too long")
	}
	n, err := strconv.ParseInt(string(line[:len(line)-1]), 10, 64)
	if err != nil || n <= 0 || n > JournalManifestLimit {
		return fmt.Errorf("its list of files is not of a length from 1 to %s", sizeText(JournalManifestLimit))
	}
	js := make([]byte, n)
	if _, err := io.ReadFull(br, js); err != nil {
		return errors.New("it ends within its list of files")
	}
	l.data = int64(len(journalMagic)+len(line)) + n
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&l.m); err != nil {
		return fmt.Errorf("its list of files does not decode: %w", err)
	}
	if dec.More() {
		return errors.New("its list of files has more after it")
	}
	m := &l.m
	switch {
	case m.Version != 1:
		return fmt.Errorf("it is of version %d; this canon reads version 1", m.Version)
	case m.PID <= 0:
		return errors.New("it names no process")
	case len(m.Files) == 0:
		return errors.New("it names no file")
	}
	if err := checkWhat(m.What); err != nil {
		return err
	}
	if size > JournalFileLimit {
		return fmt.Errorf("it is larger than %s, the most a journal holds", sizeText(JournalFileLimit))
	}
	seen := make(map[string]bool, len(m.Files))
	next := int64(0) // the contents lie one after the other, as listed
	for _, f := range m.Files {
		if err := j.checkPath(f.Path); err != nil {
			return err
		}
		if seen[f.Path] {
			return fmt.Errorf("it names %s twice", f.Path)
		}
		seen[f.Path] = true
		if f.Before == nil && f.After == nil {
			return fmt.Errorf("it says nothing of %s", f.Path)
		}
		if f.Mode&^0o777 != 0 || (f.Before == nil && f.Mode != 0) {
			return fmt.Errorf("its mode for %s is not a file's permissions", f.Path)
		}
		for _, b := range []*blob{f.Before, f.After} {
			if b == nil {
				continue
			}
			if len(b.SHA) != 64 || strings.ToLower(b.SHA) != b.SHA || !isHex(b.SHA) {
				return fmt.Errorf("its hash for %s is not a SHA-256", f.Path)
			}
			if b.Off != next || b.Len < 0 || b.Len > JournalBlobLimit || l.data+b.Off+b.Len > size {
				return fmt.Errorf("its content for %s lies outside the file or not where the one before it ends", f.Path)
			}
			next += b.Len
		}
	}
	if l.data+next != size {
		return errors.New("it holds more than the contents it lists")
	}
	// Every content read and hashed now (once: they do not overlap), so
	// that a journal damaged at its end is set aside before its first
	// file is touched.
	for _, f := range m.Files {
		for _, b := range []*blob{f.Before, f.After} {
			if b == nil {
				continue
			}
			h := sha256.New()
			if _, err := io.Copy(h, io.NewSectionReader(l.f, l.data+b.Off, b.Len)); err != nil {
				return fmt.Errorf("read the journal: %w", err)
			}
			if hex.EncodeToString(h.Sum(nil)) != b.SHA {
				return fmt.Errorf("its content for %s does not match its hash", f.Path)
			}
		}
	}
	return nil
}

func isHex(s string) bool {
	_, err := hex.DecodeString(s)
	return err == nil
}
