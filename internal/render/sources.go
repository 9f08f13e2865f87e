package render

// Source is a file a Renderer was made from and the SHA-256 of the bytes
// it read, in hex.
type Source struct {
	Path, SHA256 string
}
