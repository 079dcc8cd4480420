package check

import (
	"net/url"
	"testing"
)

func TestSARIFURI(t *testing.T) {
	t.Parallel()
	for path, want := range map[string]string{
		"docs/a.md":          "docs/a.md",
		"docs/a,b:c 100%.md": "docs/a%2Cb%3Ac%20100%25.md",
		"notes/ü ß.md":       "notes/%C3%BC%20%C3%9F.md",
		"x/[y]#z?.md":        "x/%5By%5D%23z%3F.md",
	} {
		got := SARIFURI(path)
		if got != want {
			t.Errorf("SARIFURI(%q) = %q, want %q", path, got, want)
		}
		u, err := url.Parse(got)
		if err != nil || u.Scheme != "" || u.Path != path {
			t.Errorf("%q does not read back as the relative path %q: %+v, %v", got, path, u, err)
		}
	}
}
