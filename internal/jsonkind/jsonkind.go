// Package jsonkind names the kind of a JSON value, and a key given twice,
// for the messages that tell a hook's or a model's author what was
// expected and what came.
package jsonkind

import "bytes"

// Of names the JSON type of a valid JSON value: "object", "array",
// "string", "boolean", "null", "number", or "nothing" for no value.
func Of(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return "number"
}

// Article is a kind as a message reads it: "an object", "a string",
// "null", "nothing".
func Article(kind string) string {
	switch kind {
	case "object", "array":
		return "an " + kind
	case "null", "nothing":
		return kind
	}
	return "a " + kind
}
