package markdown

// GitHub's own renderer as the arbiter. Where goldmark and canon differ,
// cmark-gfm (the C library github.com renders Markdown with; Debian ships
// it) says which one is GitHub's behaviour: a difference is deliberate only
// if cmark-gfm renders what canon extracts. Without cmark-gfm on the
// machine, the written-down rules of knownDifference stand alone.

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// githubView is what cmark-gfm renders: every link and image (inline,
// reference or autolink) by destination, and the headings.
type githubView struct {
	links map[string]bool // destination, as rendered (references resolved)
	// linkLines holds the lines on which a link or image starts.
	linkLines map[int]bool
	// linkTexts holds "DEST | TEXT" of each link and image, the text with
	// white space collapsed, as a difference writes it.
	linkTexts map[string]int  // how many times
	headings  map[string]bool // "level line slug | text", as in a difference
}

var (
	cmarkOnce sync.Once
	cmarkPath string
)

// cmarkGFM returns the path of cmark-gfm, or "" when the machine has none.
func cmarkGFM() string {
	cmarkOnce.Do(func() { cmarkPath, _ = exec.LookPath("cmark-gfm") })
	return cmarkPath
}

// fromGitHub renders src with cmark-gfm and GitHub's extensions.
func fromGitHub(t testing.TB, src []byte) (githubView, bool) {
	bin := cmarkGFM()
	if bin == "" {
		return githubView{}, false
	}
	cmd := exec.Command(bin, "--to", "xml", "--sourcepos", "-e", "autolink", "-e", "table", "-e", "strikethrough", "-e", "tasklist", "-e", "footnotes")
	cmd.Stdin = bytes.NewReader(src)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cmark-gfm: %v", err)
	}
	v := githubView{links: map[string]bool{}, linkLines: map[int]bool{}, linkTexts: map[string]int{}, headings: map[string]bool{}}
	// XML has no control characters, and cmark-gfm writes them as they are.
	dec := xml.NewDecoder(strings.NewReader(ctlFree(string(out))))
	dec.Strict = false
	var stack []*xmlOpen
	var slugs Slugger
	add := func(s string) {
		image := false // an image's alt text is no text content of a heading
		for i := len(stack) - 1; i >= 0; i-- {
			o := stack[i]
			if o.name == "heading" && image {
				continue
			}
			image = image || o.name == "image"
			o.text.WriteString(s)
		}
	}
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("cmark-gfm's XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			o := &xmlOpen{name: e.Name.Local, attrs: map[string]string{}}
			for _, a := range e.Attr {
				o.attrs[a.Name.Local] = a.Value
			}
			stack = append(stack, o)
			if o.name == "softbreak" || o.name == "linebreak" {
				add("\n")
			}
		case xml.CharData:
			if n := len(stack); n > 0 && (stack[n-1].name == "text" || stack[n-1].name == "code") {
				add(string(e))
			}
		case xml.EndElement:
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch o.name {
			case "link", "image":
				v.links[noEmptyFragment(o.attrs["destination"])] = true
				v.linkTexts[noEmptyFragment(o.attrs["destination"])+" | "+strings.Join(strings.Fields(o.text.String()), " ")]++
				line, _, _ := strings.Cut(o.attrs["sourcepos"], ":")
				n, _ := strconv.Atoi(line)
				v.linkLines[n] = true
			case "heading":
				text := o.text.String()
				line, _, _ := strings.Cut(o.attrs["sourcepos"], ":")
				if text == "" {
					line = "-"
				}
				v.headings[o.attrs["level"]+" "+line+" "+slugs.Next(text)+" | "+oneLine(text)] = true
			}
		}
	}
	return v, true
}

type xmlOpen struct {
	name  string
	attrs map[string]string
	text  strings.Builder
}

// githubDefines reports whether cmark-gfm takes label for a defined
// reference in src: a use of it appended after src renders as a link.
func githubDefines(t testing.TB, src []byte, label string) bool {
	probe := append(append([]byte{}, src...), []byte("\n\n\n["+label+"]\n")...)
	gh, ok := fromGitHub(t, probe)
	if !ok {
		return false
	}
	// The use is on the line after src's last line and two blank ones;
	// cmark-gfm ends lines at "\r\n", '\r' and '\n'.
	endings := bytes.Count(src, []byte("\n")) + bytes.Count(src, []byte("\r")) - bytes.Count(src, []byte("\r\n"))
	if bytes.HasSuffix(src, []byte("\r")) {
		endings-- // its last CR and the first appended LF are one line ending
	}
	return gh.linkLines[endings+4]
}

// githubAgrees reports whether cmark-gfm renders what canon extracts for
// the difference d (a link, a heading, or a reference definition): the
// item only canon has is on GitHub, or the item only goldmark has is not.
// A definition canon has and goldmark lacks (or the other way round) is
// settled by whether GitHub takes the label for defined; one both have,
// used by one and unused by the other, is not settled here.
func githubAgrees(t testing.TB, gh githubView, src []byte, d string, all []string, canonLinks map[string]int) bool {
	side, item, ok := strings.Cut(d, ": ")
	if !ok {
		return false
	}
	canonOnly := strings.HasSuffix(side, "only in canon")
	if what, ok := strings.CutSuffix(side, " only in canon"); ok && strings.HasSuffix(what, "definition") {
		return githubDefines(t, src, item)
	}
	if what, ok := strings.CutSuffix(side, " only in goldmark"); ok && strings.HasSuffix(what, "definition") {
		for _, other := range all {
			if o, it, _ := strings.Cut(other, ": "); it == item && strings.HasSuffix(o, "definition only in canon") {
				return false // canon has it too, used where goldmark has it unused or the other way round
			}
		}
		return !githubDefines(t, src, item)
	}
	f := strings.Fields(item)
	switch {
	case strings.HasPrefix(side, "link ") && len(f) >= 3: // "FORM LINE DEST | TEXT"
		dest := f[2]
		if dest == "|" {
			dest = ""
		}
		if _, text, ok := strings.Cut(item, " | "); ok {
			key := ctlFree(dest) + " | " + ctlFree(text)
			if !canonOnly && canonLinks != nil && gh.linkTexts[key] > 0 && gh.linkTexts[key] == canonLinks[key] {
				// goldmark has this link more often than canon, and GitHub
				// as often as canon ("a@b.c a@b.c@" links the first only).
				return true
			}
			withText := gh.linkTexts[key] > 0
			if canonOnly && withText {
				return true // GitHub has this very link, text and all
			}
			if !canonOnly && !withText && gh.links[ctlFree(dest)] {
				// GitHub links there with another text than goldmark's, and
				// canon has the link with a text of its own: that line is
				// judged on its own.
				head, _, _ := strings.Cut(item, " | ")
				for _, other := range all {
					if strings.HasPrefix(other, "link only in canon: "+head+" | ") {
						return true
					}
				}
			}
		}
		return gh.links[ctlFree(dest)] == canonOnly
	case strings.HasPrefix(side, "reference destination "): // a used definition's destination
		return gh.links[ctlFree(item)] == canonOnly
	case strings.HasPrefix(side, "heading "): // "LEVEL LINE SLUG | TEXT"
		return gh.headings[ctlFree(item)] == canonOnly
	}
	return false
}

// ctlFree replaces the control characters XML cannot hold with U+FFFD.
func ctlFree(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' && r != '\t' && r != '\n' && r != '\r' {
			return '\uFFFD'
		}
		return r
	}, s)
}
