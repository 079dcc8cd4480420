package edit

import (
	"bytes"
	"errors"
	"fmt"
	"time"

	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/scan"
)

// A sidecar (config.Sidecars: Kubernetes' kep.yaml beside a KEP's
// README.md, ADR-0084) is a whole file of YAML fields, which its README's
// document takes. A field the document reads from its sidecar is written
// there (ADR-0090), by the frontmatter's own edits: the file is read as a
// frontmatter (between two --- lines added around it), edited by whole
// lines, read again, and the two lines taken off, so that every byte the
// edit does not change (the BOM, CRLF, comments, a missing last newline)
// stays as it was.

// ErrSidecarMarker says why a sidecar's field cannot be edited: the file
// holds a YAML document marker (--- or ...) on a line of its own, which a
// frontmatter cannot hold.
var ErrSidecarMarker = errors.New("it holds a YAML document marker (--- or ...) on a line of its own; edit it by hand")

// SetSidecarField is SetField for a sidecar's content.
func SetSidecarField(content []byte, field, value string) ([]byte, bool, error) {
	return inSidecar(content, func(b []byte) ([]byte, bool, error) { return SetField(b, field, value) })
}

// AddToSidecarList is AddToList for a sidecar's content.
func AddToSidecarList(content []byte, field, item string) ([]byte, bool, error) {
	return inSidecar(content, func(b []byte) ([]byte, bool, error) { return AddToList(b, field, item) })
}

// RemoveFromSidecarList is RemoveFromList for a sidecar's content.
func RemoveFromSidecarList(content []byte, field, item string) ([]byte, bool, error) {
	return inSidecar(content, func(b []byte) ([]byte, bool, error) { return RemoveFromList(b, field, item) })
}

// inSidecar makes a frontmatter edit on a sidecar's content: wrapped in
// --- lines (in the file's line ending), edited, unwrapped, and read
// again as a sidecar (a mapping of fields within the frontmatter's
// bounds). An edit that fails leaves content as it was.
func inSidecar(content []byte, edit func([]byte) ([]byte, bool, error)) ([]byte, bool, error) {
	body, bom := bytes.CutPrefix(content, utf8BOM)
	l := splitLines(body)
	for _, t := range l.text {
		if t = string(bytes.TrimRight([]byte(t), " \t")); t == "---" || t == "..." {
			return content, false, ErrSidecarMarker
		}
	}
	open := []byte("---" + l.nl)
	unended := len(body) > 0 && body[len(body)-1] != '\n'
	wrapped := make([]byte, 0, len(body)+2*len(open)+len(l.nl))
	wrapped = append(append(wrapped, open...), body...)
	if unended {
		wrapped = append(wrapped, l.nl...)
	}
	wrapped = append(wrapped, open...)
	out, changed, err := edit(wrapped)
	if err != nil || !changed {
		return content, false, err
	}
	if !bytes.HasPrefix(out, open) || !bytes.HasSuffix(out, open) || len(out) < 2*len(open) {
		return content, false, errors.New("the edit moved the lines around the fields (a bug in canon); edit it by hand")
	}
	inner := out[len(open) : len(out)-len(open)]
	if unended {
		inner = bytes.TrimSuffix(inner, []byte(l.nl))
	}
	if bom {
		inner = append(append([]byte{}, utf8BOM...), inner...)
	}
	if _, err := markdown.ParseSidecar(inner); err != nil {
		return content, false, fmt.Errorf("the edit would leave it unreadable: %w", err)
	}
	return inner, true, nil
}

// touchSidecar is SetUpdated for a sidecar that has a field of the date
// of its last change (a KEP's last-updated): one it does not have is not
// added (the sidecar's schema is its tool's), and changes nothing.
func touchSidecar(content []byte, now time.Time) ([]byte, bool, error) {
	v, err := markdown.ParseSidecar(bytes.TrimPrefix(content, utf8BOM))
	if err != nil || v.Field(UpdatedField(v)) == nil {
		return content, false, nil
	}
	return inSidecar(content, func(b []byte) ([]byte, bool, error) { return SetUpdated(b, now) })
}

// isSidecar says whether rel is a sidecar beside a document (scan.Scope's
// IsSidecarPath): what Set edits as YAML rather than as Markdown.
func isSidecar(scope *scan.Scope, rel string) bool {
	return scope != nil && scope.IsSidecarPath(rel)
}
