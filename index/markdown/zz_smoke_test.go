package markdown

import (
	"fmt"
	"os"
	"testing"
)

func TestZZSmoke(t *testing.T) {
	src, _ := os.ReadFile(os.Getenv("MDFILE"))
	b := ScanBody(src, 1)
	for _, h := range b.Headings {
		fmt.Printf("H%d L%d %q -> %q #%s\n", h.Level, h.Line, h.Raw, h.Text, h.Slug)
	}
	for _, l := range b.Links {
		fmt.Printf("%s %d:%d dest=%q anchor=%q text=%q\n", l.Form, l.Line, l.Col, l.Dest, l.Anchor, l.Text)
	}
	for _, s := range b.Sections {
		fmt.Printf("S h=%d %s %d-%d %q\n", s.Heading, s.Slug, s.Start, s.End, s.Text)
	}
}
