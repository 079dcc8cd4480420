package markdown

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/adrg/frontmatter"
)

// adrgSplit is splitFrontmatter as it was, through adrg/frontmatter: the
// oracle splitFrontmatter is held to.
func adrgSplit(src []byte, textFields []string) (body []byte, bodyLine int, res *frontmatterResult, unclosed bool) {
	if !startsWithDelimiter(src) {
		return src, 1, nil, false
	}
	res = &frontmatterResult{textFields: textFields}
	rest, err := frontmatter.Parse(bytes.NewReader(src), res, []*frontmatter.Format{
		frontmatter.NewFormat("---", "---", unmarshalYAML),
		frontmatter.NewFormat("+++", "+++", unmarshalTOML),
	}...)
	if err != nil || res.format == "" {
		return src, 1, nil, true
	}
	consumed := src[:len(src)-len(rest)]
	return rest, 1 + bytes.Count(consumed, []byte("\n")), res, false
}

var splitCases = []string{
	"", "---", "---\n", "---\n---", "---\n---\n", "---\r\n---\r\n# x\r\n", "--- \t\r\nid: a\n  ---  \nbody\n",
	"---\nid: a\n", "---\nid: a\n---", "---\nid: a\n---\n# A\n", "---\nid: a\n---\n\n---\nb: c\n---\n",
	"---\nid: a\n\t--- \r\nrest", "---\nid: a\n----\nmore\n---\nbody", "---\nid: a\n--- x\n---\n",
	"---\nid: a\n\u00a0---\u00a0\nbody", "---\nid: a\n\v---\f\nbody", "+++\nid = \"T\"\n+++\n# T\n",
	"+++\nid = \"T\"\n---\n+++", "+++\n", "+++", "---\n+++\n---\n", "+++\n---\n+++\n", "---\nid: [x\n---\nb",
	"---\n- a\n---\n", "---\n\n\n---\n", "---\n# only a comment\n---\n", "\n---\nid: a\n---\n",
	" ---\nid: a\n---\n", "---x\n---\n", "--- \n--- \n", "---\nid: a\n---\n---\n", "---\ntitle: a\r\n---",
}

// TestSplitFrontmatterAsAdrg holds splitFrontmatter to what
// adrg/frontmatter made of the same files: body, body line, parse result,
// unclosed. The body is no longer a copy, so a split must leave src as it
// was.
func TestSplitFrontmatterAsAdrg(t *testing.T) {
	t.Parallel()
	inputs := splitCases
	for _, root := range []string{"../../testdata", "../../docs"} {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(p) != ".md" {
				return err
			}
			data, err := os.ReadFile(p)
			inputs = append(inputs, string(data))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, in := range inputs {
		for _, fields := range [][]string{nil, {"title"}} {
			compareSplit(t, []byte(in), fields)
		}
	}
}

func compareSplit(t *testing.T, src []byte, fields []string) {
	t.Helper()
	orig := bytes.Clone(src)
	wb, wl, wr, wu := adrgSplit(bytes.Clone(src), fields)
	gb, gl, gr, gu := splitFrontmatter(src, fields)
	if !bytes.Equal(src, orig) {
		t.Fatalf("%q: the split changed its input", orig)
	}
	if !bytes.Equal(gb, wb) || gl != wl || gu != wu || !reflect.DeepEqual(gr, wr) {
		t.Fatalf("%q:\n got body %q line %d unclosed %v res %+v\nwant body %q line %d unclosed %v res %+v", src, gb, gl, gu, gr, wb, wl, wu, wr)
	}
}

// FuzzSplitFrontmatter compares the two on any input.
func FuzzSplitFrontmatter(f *testing.F) {
	for _, s := range splitCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		compareSplit(t, src, []string{"title"})
	})
}
