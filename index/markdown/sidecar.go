package markdown

import (
	"errors"
	"strings"
)

// A sidecar is a YAML file beside a folder's README.md that holds the
// fields of the README's document (Kubernetes keeps a KEP's title,
// number, status and stage in kep.yaml beside its README.md). Its fields
// are the document's where the README's own frontmatter does not set
// them.

// Sidecar is a sidecar's fields, read (ParseSidecar), and how its id is
// written: IDField's value after IDPrefix ("KEP-" and kep-number 2400:
// KEP-2400), when the document has no id of its own.
type Sidecar struct {
	Fields   *Value
	IDField  string
	IDPrefix string
}

// ParseSidecar reads a sidecar's YAML with the bounds a frontmatter is
// read with (pastBounds, the converter's depth and size). Its fields
// keep no place: a problem they give is the document's, not a line of
// the README. A sidecar that is not a mapping of fields is an error.
func ParseSidecar(data []byte) (*Value, error) {
	v, err := SidecarPlaces(data)
	if err != nil {
		return nil, err
	}
	forgetPlaces(v)
	return v, nil
}

// SidecarPlaces is ParseSidecar with each field's and value's place in
// the sidecar kept: what points a problem a sidecar's field gives at its
// line of the sidecar (FieldPlace).
func SidecarPlaces(data []byte) (*Value, error) {
	res := &frontmatterResult{}
	if err := unmarshalYAML(data, res); err != nil {
		return nil, err
	}
	var se *SyntaxError
	switch {
	case errors.As(res.err, &se):
		return nil, errors.New(se.Msg)
	case res.err != nil:
		return nil, res.err
	case res.root == nil || res.root.Kind != Map:
		return nil, errors.New("it is not a mapping of fields")
	}
	fileLines(res.root)
	return res.root, nil
}

// fileLines makes the places of v, read as a frontmatter's (its first
// line the file's fmFirstLine), the sidecar's own lines: it has no
// opening --- line.
func fileLines(v *Value) {
	if v == nil {
		return
	}
	if v.Line > 0 {
		v.Line -= fmFirstLine - 1
	}
	for _, it := range v.Items {
		fileLines(it)
	}
	for i := range v.Fields {
		if v.Fields[i].Line > 0 {
			v.Fields[i].Line -= fmFirstLine - 1
		}
		fileLines(v.Fields[i].Value)
	}
}

// FieldPlace is where the top-level field key of fields (SidecarPlaces)
// writes value: the list item of that text, a scalar value, else the
// field's key; 0, 0 when the field is not there.
func FieldPlace(fields *Value, key, value string) (line, col int) {
	if fields == nil {
		return 0, 0
	}
	for _, f := range fields.Fields {
		if f.Key != key {
			continue
		}
		v := f.Value
		if v == nil || v.Line < 1 || v.Kind == Map {
			return f.Line, f.Col
		}
		for _, it := range v.Items {
			if t, ok := it.Scalar(); ok && it.Line > 0 && strings.TrimSpace(t) == strings.TrimSpace(value) {
				return it.Line, it.Col
			}
		}
		if v.Kind == List {
			return f.Line, f.Col
		}
		return v.Line, v.Col
	}
	return 0, 0
}

func forgetPlaces(v *Value) {
	if v == nil {
		return
	}
	v.Line, v.Col = 0, 0
	for _, it := range v.Items {
		forgetPlaces(it)
	}
	for i := range v.Fields {
		v.Fields[i].Line, v.Fields[i].Col = 0, 0
		forgetPlaces(v.Fields[i].Value)
	}
}

// takeSidecar lays a sidecar's fields under the document's frontmatter:
// each field the frontmatter does not have, and the id it writes.
func (d *Document) takeSidecar(s *Sidecar) {
	if s == nil || s.Fields == nil {
		return
	}
	fm := d.Frontmatter
	if fm == nil || fm.Kind != Map {
		fm = &Value{Kind: Map}
		d.Frontmatter = fm
	}
	for _, f := range s.Fields.Fields {
		if fm.Field(f.Key) == nil {
			fm.Fields = append(fm.Fields, f)
		}
	}
	if s.IDField == "" || fm.Field("id") != nil {
		return
	}
	if n, ok := s.Fields.Get(s.IDField).Scalar(); ok && !placeholderNumber(n) {
		fm.Fields = append(fm.Fields, Field{Key: "id", Value: &Value{Kind: String, Text: s.IDPrefix + strings.TrimSpace(n)}})
	}
}

// placeholderNumber reports a sidecar's id value that names no document:
// empty, or a number of zeros (kep-number: 0000, which several KEPs of
// Kubernetes' process keep before one is given, and its templates).
func placeholderNumber(n string) bool {
	return strings.Trim(strings.TrimSpace(n), "0") == ""
}
