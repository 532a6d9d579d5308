package suite

import "testing"

// BenchmarkParse is the per-exec cost the fuzzer pays.
func BenchmarkParse(b *testing.B) {
	opt := Options{ReadFile: files(map[string]string{"cfg/prompts/system.md": "Be brief.", "cfg/prompts/user.txt": "Hello"}),
		Getenv: env(map[string]string{"OPENAI_API_KEY": "k", "ORG_ID": "o"})}
	for b.Loop() {
		if _, err := Parse("cfg/latgate.yaml", []byte(good), opt); err != nil {
			b.Fatal(err)
		}
	}
}
