package markdown

import (
	"encoding/json"
	"fmt"
	"github.com/canon-md/canon/index/indextest/must"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// FuzzParse feeds whole documents, frontmatter included, to Parse. Seeded
// with testdata/hostile (alias bombs, self-referencing aliases, nesting past
// every consumer's limit), it checks the bounds hold for any input: Parse
// returns, the frontmatter nests at most MaxFrontmatterDepth deep, its JSON
// is valid for every later consumer, the body stays within its budgets,
// problems point into the file, and the same input gives the same result.
func FuzzParse(f *testing.F) {
	hostile, _ := filepath.Glob("../../testdata/hostile/*.md")
	for _, p := range hostile {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, s := range []string{
		"---\nid: A-1\ntitle: x\nparent: [[B-2]]\nlinks: {blocks: [C-3, 'D-4'], relates: ~}\n---\n# A\n[b](b.md#x)\n",
		"---\na: &x {b: [1, 2]}\nc: *x\nd: [*x, *x]\n<<: *x\n---\n",
		"---\n? [a, b]\n: c\n{x: y}: z\n---\n",
		"+++\nid = \"T-1\"\n[links]\nblocks = [\"A\", \"B\"]\n[[x.y]]\nz = {a = [1, {b = 2}]}\n+++\n# T\n",
		"+++\ns = '''[[[{'''\nt = \"\"\"\n{{{\"\"\"\n# [[[[\n+++\n",
		"---\n- a\n- b\n---\n",
		"---\nid: [unclosed\n---\n",
		"\xef\xbb\xbf---\r\nid: BOM\r\n---\r\n# Bom\r\n",
	} {
		f.Add([]byte(s))
	}
	opt := &Options{Edges: map[string]string{"parent": "parent", "links.blocks": "blocks", "links.relates": "relates"}}
	f.Fuzz(func(t *testing.T, src []byte) {
		start := time.Now()
		d := Parse("items/a.md", src, opt)
		if dir := os.Getenv("CANON_FUZZ_SLOW"); dir != "" && time.Since(start) > time.Second {
			must.OK(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("slow-%d", time.Now().UnixNano())), src, 0o644))
		}
		if depth := depthOf(d.Frontmatter); depth > MaxFrontmatterDepth {
			t.Fatalf("frontmatter nests %d deep", depth)
		}
		js := d.FrontmatterJSON()
		var v any
		if err := json.Unmarshal(js, &v); err != nil {
			t.Fatalf("frontmatter JSON %.200q: %v", js, err)
		}
		if len(d.Body.Links) > MaxLinks || len(d.Body.Headings) > MaxHeadings {
			t.Fatalf("%d links, %d headings: past the budget", len(d.Body.Links), len(d.Body.Headings))
		}
		for _, p := range d.Problems {
			if p.Line < 1 || p.Rule == "" || p.Message == "" {
				t.Fatalf("problem without a place or a message: %+v", p)
			}
		}
		if again := Parse("items/a.md", src, opt); !reflect.DeepEqual(d, again) {
			t.Fatalf("two parses of %q differ", src)
		}
	})
}
