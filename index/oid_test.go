package index

import "testing"

func TestIsObjectID(t *testing.T) {
	for s, want := range map[string]bool{
		"44bbc714e9e30ddb48e2ef0927366f4af5c25945":                              true,
		"44bbc714e9e30ddb48e2ef0927366f4af5c25945" + "44bbc714e9e30ddb48e2ef09": true,
		"44BBC714E9E30DDB48E2EF0927366F4AF5C25945":                              false,
		"44bbc71":         false,
		"":                false,
		"--output=/tmp/x": false,
		"HEAD":            false,
		"44bbc714e9e30ddb48e2ef0927366f4af5c2594g":      false,
		"44bbc714e9e30ddb48e2ef0927366f4af5c2594" + " ": false, // a trailing space
		"-4bbc714e9e30ddb48e2ef0927366f4af5c25945":      false,
	} {
		if got := IsObjectID(s); got != want {
			t.Errorf("IsObjectID(%q) = %v, want %v", s, got, want)
		}
	}
}
