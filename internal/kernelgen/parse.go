package kernelgen

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// Kernel is one parsed kernel file.
type Kernel struct {
	// Name is the kernel's C name, equal to the file's base name.
	Name string
	// File is the .cu file name, without folder.
	File string
	// Doc is the comment block right above the kernel, without the // marks.
	Doc string
	// Params are the kernel's parameters in order.
	Params []Param
	// Cooperative is set by a "//kernelgen:cooperative" line closing the
	// kernel's comment: the kernel waits on grid-wide barriers, so every
	// block must be resident at once, which only a cooperative launch
	// guarantees. Its wrapper then launches it that way and no other.
	Cooperative bool
}

// directivePrefix opens a comment line addressed to the generator rather
// than to the reader ("//kernelgen:cooperative"); such lines are not part of
// the kernel's documentation.
const directivePrefix = "kernelgen:"

// Param is one kernel parameter.
type Param struct {
	// Name is the C name.
	Name string
	// CType is the C type as written, qualifiers removed.
	CType string
	// GoType is the Go type the wrapper takes: cu.DevicePtr, int64, uint64
	// or float64.
	GoType string
}

var (
	kernelRe  = regexp.MustCompile(`extern\s+"C"\s+__global__\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?void\s+(?:__launch_bounds__\s*\([^)]*\)\s*)?(\w+)\s*\(([^)]*)\)`)
	externRe  = regexp.MustCompile(`extern\s+"C"\s+__global__`)
	paramRe   = regexp.MustCompile(`^(.*?)(\w+)$`)
	qualifier = strings.NewReplacer("__restrict__", " ", "const", " ", "volatile", " ")
)

// scalarTypes maps the accepted 64-bit scalar C types to Go types.
var scalarTypes = map[string]string{
	"long long":              "int64",
	"long long int":          "int64",
	"signed long long":       "int64",
	"int64_t":                "int64",
	"i64":                    "int64",
	"unsigned long long":     "uint64",
	"unsigned long long int": "uint64",
	"uint64_t":               "uint64",
	"double":                 "float64",
}

// Parse finds the single extern "C" __global__ function of a kernel file and
// checks that it is named after the file and takes only 64-bit parameters.
func Parse(file string, src []byte) (*Kernel, error) {
	text := stripBlockComments(string(src))
	base := strings.TrimSuffix(filepath.Base(file), ".cu")
	if n := len(externRe.FindAllStringIndex(text, -1)); n != 1 {
		return nil, fmt.Errorf("kernelgen: %s: want exactly one extern \"C\" __global__ function, found %d", file, n)
	}
	m := kernelRe.FindStringSubmatchIndex(text)
	if m == nil {
		return nil, fmt.Errorf("kernelgen: %s: cannot parse the extern \"C\" __global__ declaration", file)
	}
	name := text[m[2]:m[3]]
	if name != base {
		return nil, fmt.Errorf("kernelgen: %s: kernel is named %s, want %s (the file's base name)", file, name, base)
	}
	k := &Kernel{Name: name, File: filepath.Base(file)}
	if err := k.setDoc(docAbove(text, m[0])); err != nil {
		return nil, fmt.Errorf("kernelgen: %s: %w", file, err)
	}
	list := strings.TrimSpace(text[m[4]:m[5]])
	if list == "" || list == "void" {
		return k, nil
	}
	for _, raw := range strings.Split(list, ",") {
		p, err := parseParam(raw)
		if err != nil {
			return nil, fmt.Errorf("kernelgen: %s: kernel %s: %w", file, name, err)
		}
		k.Params = append(k.Params, p)
	}
	return k, nil
}

// setDoc keeps the comment lines of doc and applies its directives.
func (k *Kernel) setDoc(doc string) error {
	var lines []string
	for _, l := range strings.Split(doc, "\n") {
		d, ok := strings.CutPrefix(l, directivePrefix)
		if !ok {
			lines = append(lines, l)
			continue
		}
		switch d {
		case "cooperative":
			k.Cooperative = true
		default:
			return fmt.Errorf("unknown directive //%s%s (known: cooperative)", directivePrefix, d)
		}
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	k.Doc = strings.Join(lines, "\n")
	return nil
}

func parseParam(raw string) (Param, error) {
	decl := strings.Join(strings.Fields(raw), " ")
	m := paramRe.FindStringSubmatch(decl)
	if m == nil || strings.TrimSpace(m[1]) == "" {
		return Param{}, fmt.Errorf("cannot parse parameter %q", decl)
	}
	ctype := strings.Join(strings.Fields(qualifier.Replace(m[1])), " ")
	ctype = strings.ReplaceAll(ctype, " *", "*")
	p := Param{Name: m[2], CType: ctype}
	switch {
	case strings.HasSuffix(ctype, "*"):
		p.GoType = "cu.DevicePtr"
	case scalarTypes[ctype] != "":
		p.GoType = scalarTypes[ctype]
	default:
		return Param{}, fmt.Errorf("parameter %s has type %s: kernel parameters must be 64-bit "+
			"(a pointer, long long, unsigned long long or double) because cu.Function.Launch copies "+
			"8 bytes per argument", p.Name, ctype)
	}
	return p, nil
}

// stripBlockComments blanks /* */ comments, keeping newlines, so commented
// code is not parsed.
func stripBlockComments(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "/*")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		j := strings.Index(s[i+2:], "*/")
		if j < 0 {
			return b.String()
		}
		comment := s[i : i+2+j+2]
		b.WriteString(strings.Repeat("\n", strings.Count(comment, "\n")))
		s = s[i+2+j+2:]
	}
}

// docAbove returns the // comment lines directly above offset at.
func docAbove(text string, at int) string {
	lines := strings.Split(text[:at], "\n")
	// The last element is the start of the declaration line itself.
	lines = lines[:len(lines)-1]
	var doc []string
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(l, "//") {
			break
		}
		doc = append([]string{strings.TrimSpace(strings.TrimPrefix(l, "//"))}, doc...)
	}
	return strings.Join(doc, "\n")
}
