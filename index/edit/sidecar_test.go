package edit

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/canon-md/canon/index/config"
	"github.com/canon-md/canon/index/indextest/must"
	"go.yaml.in/yaml/v4"
)

const kepYAML = "title: Node swap\nkep-number: 2400\nauthors:\n  - \"@a\"\n# the stage\nstage: beta # now\nstatus: implementable\nmilestone:\n  beta: \"v1.28\"\n"

func TestSetSidecarField(t *testing.T) {
	for _, tc := range []struct {
		name, in, field, value, want, err string
	}{
		{name: "a value's line", in: kepYAML, field: "status", value: "implemented",
			want: strings.Replace(kepYAML, "status: implementable", "status: implemented", 1)},
		{name: "its comment kept", in: kepYAML, field: "stage", value: "stable",
			want: strings.Replace(kepYAML, "stage: beta # now", "stage: stable # now", 1)},
		{name: "quoted as YAML needs", in: kepYAML, field: "note", value: "true",
			want: kepYAML + "note: \"true\"\n"},
		{name: "a nested field", in: kepYAML, field: "milestone.beta", value: "v1.29",
			want: strings.Replace(kepYAML, `beta: "v1.28"`, `beta: "v1.29"`, 1)},
		{name: "CRLF and a BOM", in: "\ufefftitle: x\r\nstatus: provisional\r\n", field: "status", value: "implementable",
			want: "\ufefftitle: x\r\nstatus: implementable\r\n"},
		{name: "no last newline", in: "title: x\nstatus: provisional", field: "owner", value: "bob",
			want: "title: x\nstatus: provisional\nowner: bob"},
		{name: "a document marker", in: "---\ntitle: x\n", field: "status", value: "x", err: "document marker"},
		{name: "a list is no value", in: kepYAML, field: "authors", value: "x", err: "not a single value"},
		{name: "two lines", in: kepYAML, field: "status", value: "a\nb", err: "line"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, changed, err := SetSidecarField([]byte(tc.in), tc.field, tc.value)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || changed || string(out) != tc.in {
					t.Fatalf("err = %v, changed %v, out %q; want %q and the content as it was", err, changed, out, tc.err)
				}
				return
			}
			must.OK(t, err)
			if !changed || string(out) != tc.want {
				t.Fatalf("got (%v)\n%q\nwant\n%q", changed, out, tc.want)
			}
		})
	}
	out, changed, err := SetSidecarField([]byte(kepYAML), "status", "implementable")
	if err != nil || changed || string(out) != kepYAML {
		t.Fatalf("a value already held: changed %v, err %v", changed, err)
	}
}

func TestSidecarLists(t *testing.T) {
	out, changed, err := AddToSidecarList([]byte(kepYAML), "authors", "@b")
	must.OK(t, err)
	if want := strings.Replace(kepYAML, "  - \"@a\"\n", "  - \"@a\"\n  - \"@b\"\n", 1); !changed || string(out) != want {
		t.Fatalf("add: %q", out)
	}
	out, changed, err = RemoveFromSidecarList(out, "authors", "@a")
	must.OK(t, err)
	if want := strings.Replace(kepYAML, "  - \"@a\"\n", "  - \"@b\"\n", 1); !changed || string(out) != want {
		t.Fatalf("remove: %q", out)
	}
}

// TestSetWritesSidecar: a change set edits a kep.yaml beside a document
// as YAML, and Apply writes it (a sidecar is writable, no other YAML is).
func TestSetWritesSidecar(t *testing.T) {
	r := newRepo(t, map[string]string{
		"keps/sig-x/1-a/README.md":  "# A\n",
		"keps/sig-x/1-a/kep.yaml":   kepYAML,
		"keps/sig-x/1-a/other.yaml": "status: x\n",
	})
	cfg := config.Default()
	cfg.Sidecars = []config.Sidecar{{File: "kep.yaml", ID: "kep-number", Prefix: "KEP-"}}
	r.cfg = cfg
	set := NewSet(r.root, r.Documents())
	changed, err := set.SetField("keps/sig-x/1-a/kep.yaml", "status", "implemented")
	must.OK(t, err)
	if !changed {
		t.Fatal("nothing changed")
	}
	if _, err := set.SetField("keps/sig-x/1-a/other.yaml", "status", "y"); err == nil || !strings.Contains(err.Error(), "outside the canonical roots") {
		t.Fatalf("another YAML file: err = %v", err)
	}
	written, err := set.Apply(context.Background(), r, "canon set", nil)
	must.OK(t, err)
	if len(written) != 1 || written[0] != "keps/sig-x/1-a/kep.yaml" {
		t.Fatalf("written %v", written)
	}
	got, err := os.ReadFile(filepath.Join(r.root, "keps/sig-x/1-a/kep.yaml"))
	must.OK(t, err)
	if want := strings.Replace(kepYAML, "status: implementable", "status: implemented", 1); string(got) != want {
		t.Fatalf("kep.yaml:\n%s", got)
	}
	if readme, _ := os.ReadFile(filepath.Join(r.root, "keps/sig-x/1-a/README.md")); string(readme) != "# A\n" {
		t.Fatalf("README: %q", readme)
	}
	if *r.syncs != 1 {
		t.Fatalf("%d syncs", *r.syncs)
	}
}

// TestTouchSidecar: a sidecar's date of its last change (a KEP's
// last-updated) takes the day of an edit; a sidecar without one is given
// none.
func TestTouchSidecar(t *testing.T) {
	r := newRepo(t, map[string]string{
		"keps/a/1-a/README.md": "# A\n",
		"keps/a/1-a/kep.yaml":  "status: provisional\nlast-updated: 2024-02-01 # by hand\n",
		"keps/a/2-b/README.md": "# B\n",
		"keps/a/2-b/kep.yaml":  "status: provisional\n",
	})
	cfg := config.Default()
	cfg.Sidecars = []config.Sidecar{{File: "kep.yaml"}}
	r.cfg = cfg
	set := NewSet(r.root, r.Documents())
	for _, p := range []string{"keps/a/1-a/kep.yaml", "keps/a/2-b/kep.yaml"} {
		if _, err := set.SetField(p, "status", "implementable"); err != nil {
			t.Fatal(err)
		}
	}
	set.Touch(time.Date(2026, 3, 4, 10, 0, 0, 0, time.UTC))
	files := set.Files()
	if got := string(files[0].After); got != "status: implementable\nlast-updated: 2026-03-04 # by hand\n" || files[0].Updated != "2026-03-04" {
		t.Errorf("with last-updated: %q (%q)", got, files[0].Updated)
	}
	if got := string(files[1].After); got != "status: implementable\n" || files[1].Updated != "" {
		t.Errorf("without: %q (%q)", got, files[1].Updated)
	}
}

// A value with YAML's own characters ('#', ': ', quotes, a leading '-' or
// '@', a number or a boolean that is text) reads back unchanged from the
// sidecar it was written into, both as a new field and over an old one.
func TestSidecarValuesComeBackUnchanged(t *testing.T) {
	for _, value := range []string{
		"a #b", "x: y", `it's "quoted"`, "- item", "@owner", "'single'", "1.10", "1e3", "yes", "null", "~",
		"{a: 1}", "[x]", "*ref", "&anchor", "% pct", "`tick`", " padded ", "a\\b", "ümlaut ✓",
	} {
		for _, field := range []string{"status", "note"} {
			out, _, err := SetSidecarField([]byte(kepYAML), field, value)
			if err != nil {
				t.Fatalf("%s=%q: %v", field, value, err)
			}
			var got map[string]any
			if err := yaml.Unmarshal(out, &got); err != nil {
				t.Fatalf("%s=%q wrote YAML that does not parse: %v\n%s", field, value, err, out)
			}
			if s, ok := got[field].(string); !ok || s != value {
				t.Errorf("%s=%q reads back as %#v\n%s", field, value, got[field], out)
			}
			if got["title"] != "Node swap" || got["kep-number"] != 2400 {
				t.Errorf("%s=%q changed other fields: %v", field, value, got)
			}
		}
	}
}
