package generated

import (
	"bytes"
	"path"
	"strings"

	"github.com/canon-md/canon/index/markdown"
)

// The reasons a document counts as generated, as the index stores them in
// docs.generated ("" for a document people write).
const (
	// Marker: the frontmatter says generated: true.
	Marker = "marker"
	// KanoBuild: Kano's build stamp (a "<!-- kano:build" comment)
	// opens the document.
	KanoBuild = "kano_build"
	// Path: where it is says so: a views folder of a Kano backlog
	// (under _kano/), a *.index.md stub or a *.generated.md file.
	Path = "path"
	// List: most of its lines are list items that are a link with
	// at most a short note, and there are many of them.
	List = "link_list"
)

// Reason says why a document read at p counts as generated, ""
// when it does not (content is the file as read, nil when it is not at
// hand, which skips the Kano stamp rule). The content rules come first, so that a rename, which
// does not read the file again, keeps a content reason and recomputes only
// the path rule (OnRename).
func Reason(p string, d *markdown.Document, content []byte) string {
	if generatedMarker(d) {
		return Marker
	}
	if kanoBuildStamp(d, content) {
		return KanoBuild
	}
	if r := generatedPath(p); r != "" {
		return r
	}
	if linkList(d) {
		return List
	}
	return ""
}

// OnRename is a renamed document's reason: a content reason stays,
// the path rule is applied to the new path.
func OnRename(stored, to string) string {
	switch stored {
	case Marker, KanoBuild, List:
		return stored
	}
	return generatedPath(to)
}

func generatedMarker(d *markdown.Document) bool {
	v, ok := d.Frontmatter.Get("generated").Scalar()
	if !ok {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes":
		return true
	}
	return false
}

// kanoBuildStamp: a line "<!-- kano:build" among the first stampLines
// lines of the body, where Kano's view and snapshot generators write it (a
// document that describes the stamp quotes it further down, in code). The
// scanner keeps HTML comments out of section text, so the raw content is
// read.
func kanoBuildStamp(d *markdown.Document, content []byte) bool {
	line := 1
	for len(content) > 0 && line < d.BodyLine+stampLines {
		end := bytes.IndexByte(content, '\n')
		if end < 0 {
			end = len(content)
		}
		if line >= d.BodyLine && string(bytes.TrimSpace(content[:end])) == "<!-- kano:build" {
			return true
		}
		content = content[min(end+1, len(content)):]
		line++
	}
	return false
}

const stampLines = 12

func fenceOf(t string) string {
	for _, f := range []string{"```", "~~~"} {
		if strings.HasPrefix(t, f) {
			return f
		}
	}
	return ""
}

// generatedPath applies the path rules.
func generatedPath(p string) string {
	base := path.Base(p)
	if strings.HasSuffix(base, ".index.md") || strings.HasSuffix(base, ".generated.md") {
		return Path
	}
	kano := false
	for _, part := range strings.Split(path.Dir(p), "/") {
		switch {
		case part == "_kano":
			kano = true
		case part == "views" && kano:
			return Path
		}
	}
	return ""
}

// Thresholds of the link-list rule: at least listMin link lines, making up
// at least listShare of the lines with text (headings, blank lines, HTML
// comments and code not counted), each with at most listNote characters
// besides its link. A hand-written document with a list of twenty links
// and a few paragraphs around it stays below.
const (
	listMin   = 12
	listShare = 0.8
	listNote  = 40
)

// linkList reports a document that is mostly a list of links.
func linkList(d *markdown.Document) bool {
	links, lines := 0, 0
	for _, s := range d.Body.Sections {
		fence, comment := "", false
		for _, line := range strings.Split(s.Text, "\n") {
			t := strings.TrimSpace(line)
			if f := fenceOf(t); f != "" || fence != "" {
				switch {
				case fence == "":
					fence = f
				case f == fence:
					fence = ""
				}
				continue
			}
			if comment || strings.HasPrefix(t, "<!--") {
				comment = !strings.Contains(t, "-->")
				continue
			}
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			lines++
			if linkLine(t) {
				links++
			}
		}
	}
	return links >= listMin && float64(links) >= listShare*float64(lines)
}

// linkLine: a list item (or table row) that is a link plus a short note.
func linkLine(t string) bool {
	switch {
	case strings.HasPrefix(t, "- "), strings.HasPrefix(t, "* "), strings.HasPrefix(t, "+ "):
		t = strings.TrimSpace(t[2:])
	case strings.HasPrefix(t, "|"):
		t = strings.Trim(t, "| ")
	default:
		i := strings.IndexAny(t, ".)")
		if i <= 0 || i > 3 || strings.Trim(t[:i], "0123456789") != "" {
			return false
		}
		t = strings.TrimSpace(t[i+1:])
	}
	t = strings.TrimPrefix(t, "[x] ")
	t = strings.TrimPrefix(t, "[ ] ")
	var rest string
	switch {
	case strings.HasPrefix(t, "[["):
		end := strings.Index(t, "]]")
		if end < 0 {
			return false
		}
		rest = t[end+2:]
	case strings.HasPrefix(t, "["):
		mid := strings.Index(t, "](")
		if mid < 0 {
			return false
		}
		end := strings.IndexByte(t[mid:], ')')
		if end < 0 {
			return false
		}
		rest = t[mid+end+1:]
	default:
		return false
	}
	return len([]rune(strings.TrimSpace(rest))) <= listNote
}
