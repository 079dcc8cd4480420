package check

import "testing"

func TestTemplated(t *testing.T) {
	for raw, want := range map[string]bool{
		"{{% eturl opengraph %}}": true, `{{< relref "b.md" >}}`: true, "{% link _posts/x.md %}": true,
		"{{ .Site.BaseURL }}/x": true, "{LOG4BRAINS_ADR_SLUG}.md": true, "./a.md": false, "./a{.md": false,
		"./{}.md": false, "yyyymmdd-xxx.md": false,
	} {
		if got := templated(raw); got != want {
			t.Errorf("templated(%q) = %v, want %v", raw, got, want)
		}
	}
}
