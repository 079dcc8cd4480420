package check

import (
	"strings"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/markdown"
	"github.com/canon-md/canon/index/scan"
)

// A document that keeps its fields in a sidecar (a KEP's kep.yaml beside
// its README.md, ADR-0084) has no line of its own for them: a finding
// about such a field (a status not in the schema, a dangling replaces:, a
// duplicate kep-number) points at the field's line of the sidecar.

// fieldRef is the field and value a finding without a line is about.
type fieldRef struct{ field, value string }

// sidecarRead is a sidecar read for placing findings: its path and its
// fields with their places (nil: none, or not read).
type sidecarRead struct {
	path   string
	fields *markdown.Value
	conf   config.Sidecar
}

// beside moves each finding of out about a field (refs, aligned) that the
// document's sidecar holds to the field's line of the sidecar. A sidecar
// is read once (Input.ReadSidecar); one that
// cannot be read or parsed leaves the finding where it was.
func (c *checker) beside(out []Finding, refs []fieldRef) {
	if c.in.ReadSidecar == nil || len(c.in.Cfg.Sidecars) == 0 {
		return
	}
	read := map[string]*sidecarRead{}
	for i := range out {
		ref := refs[i]
		if ref.field == "" {
			continue
		}
		sc, ok := read[out[i].Path]
		if !ok {
			sc = c.readSidecar(out[i].Path)
			read[out[i].Path] = sc
		}
		if sc == nil {
			continue
		}
		field, value := ref.field, ref.value
		if field == "id" && sc.fields.Field("id") == nil && sc.conf.ID != "" {
			field, value = sc.conf.ID, strings.TrimPrefix(value, sc.conf.Prefix)
		}
		if line, col := markdown.FieldPlace(sc.fields, field, value); line > 0 {
			out[i].Path, out[i].Line, out[i].Col = sc.path, line, max(col, 1)
		}
	}
}

// readSidecar reads the sidecar beside the document at rel as the
// checked state has it (Input.ReadSidecar).
func (c *checker) readSidecar(rel string) *sidecarRead {
	p, data := c.in.ReadSidecar(rel)
	if p == "" {
		return nil
	}
	for i, q := range scan.SidecarsOf(c.in.Cfg, rel) {
		if q != p {
			continue
		}
		v, err := markdown.SidecarPlaces(data)
		if err != nil {
			return nil
		}
		return &sidecarRead{path: p, fields: v, conf: c.in.Cfg.Sidecars[i]}
	}
	return nil
}
