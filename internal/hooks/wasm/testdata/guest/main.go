// Command guest is the module the tests of package wasm run, built with
// GOOS=wasip1 GOARCH=wasm. Its first argument picks what it does, else the
// first line of its stdin (a hook gets no arguments).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"sort"
	"strings"
	"syscall"
	"time"
)

func main() {
	var mode string
	if len(os.Args) > 1 {
		mode = os.Args[1]
	} else {
		line, _ := bufio.NewReader(os.Stdin).ReadString('\n')
		mode = strings.TrimSpace(line)
	}
	switch mode {
	case "echo": // stdin to stdout
		io.Copy(os.Stdout, os.Stdin)
	case "env": // the environment and arguments, as JSON
		env := os.Environ()
		sort.Strings(env)
		json.NewEncoder(os.Stdout).Encode(map[string]any{"env": env, "args": os.Args})
	case "exit": // stderr, then exit code 3
		fmt.Fprint(os.Stderr, "  "+strings.Repeat("é", 200)+"\n")
		os.Exit(3)
	case "spin": // compute forever
		n := 0
		for {
			n++
		}
	case "sleep":
		time.Sleep(time.Hour)
	case "alloc": // 1 GiB, more than the runtime allows
		b := make([]byte, 1<<30)
		for i := range b {
			b[i] = 1
		}
		fmt.Println(len(b))
	case "flood": // stdout without end
		line := []byte(strings.Repeat("x", 1023) + "\n")
		for {
			os.Stdout.Write(line)
		}
	case "big": // exactly MaxStdout bytes
		os.Stdout.Write([]byte(strings.Repeat("y", 1<<20)))
	case "clock":
		start := time.Now()
		time.Sleep(20 * time.Millisecond)
		fmt.Println(start.Year() >= 2025, time.Since(start) >= 20*time.Millisecond)
	case "probe":
		probe()
	case "open": // each argument read:<path> or write:<path>, reported as JSON
		open(os.Args[2:])
	case "net": // send a byte to the address of its second argument
		network(os.Args[2])
	default:
		fmt.Fprintf(os.Stderr, "unknown mode %q\n", mode)
		os.Exit(64)
	}
}

// probe tries every way out of the sandbox the tests know and reports what
// each attempt did: "ok" (with what was read), or the error.
func probe() {
	res := map[string]string{}
	try := func(name string, f func() (string, error)) {
		s, err := f()
		if err != nil {
			res[name] = "refused: " + err.Error()
			return
		}
		res[name] = "ok " + s
	}
	read := func(p string) func() (string, error) {
		return func() (string, error) {
			b, err := os.ReadFile(p)
			return strings.TrimSpace(string(b)), err
		}
	}
	write := func(p, s string) func() (string, error) {
		return func() (string, error) {
			if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
				return "", err
			}
			b, err := os.ReadFile(p)
			return string(b), err
		}
	}

	// What the module may do.
	try("cwd", func() (string, error) { return os.Getwd() })
	try("read ro/data.txt", read("ro/data.txt"))
	try("read /ro/data.txt", read("/ro/data.txt"))
	try("read ro/sub/deep.txt", read("ro/sub/deep.txt"))
	try("read ro/inner-link", read("ro/inner-link"))
	try("list ro", func() (string, error) {
		es, err := os.ReadDir("ro")
		var names []string
		for _, e := range es {
			names = append(names, e.Name())
		}
		return strings.Join(names, ","), err
	})
	try("write rw/out.txt", write("rw/out.txt", "written"))
	try("write /rw/abs.txt", write("/rw/abs.txt", "abs"))
	try("append rw/out.txt", func() (string, error) {
		f, err := os.OpenFile("rw/out.txt", os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return "", err
		}
		f.WriteString("+more")
		f.Close()
		b, err := os.ReadFile("rw/out.txt")
		return string(b), err
	})
	try("mkdir rw/sub", func() (string, error) {
		if err := os.MkdirAll("rw/sub/deeper", 0o755); err != nil {
			return "", err
		}
		return "", os.WriteFile("rw/sub/deeper/f.txt", []byte("f"), 0o644)
	})
	try("rename in rw", func() (string, error) {
		if err := os.WriteFile("rw/a.txt", []byte("a"), 0o644); err != nil {
			return "", err
		}
		return "", os.Rename("rw/a.txt", "rw/b.txt")
	})
	try("remove in rw", func() (string, error) {
		if err := os.WriteFile("rw/gone.txt", []byte("g"), 0o644); err != nil {
			return "", err
		}
		return "", os.Remove("rw/gone.txt")
	})

	// What it may not.
	try("write ro/new.txt", write("ro/new.txt", "no"))
	try("append ro/data.txt", func() (string, error) {
		f, err := os.OpenFile("ro/data.txt", os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			return "", err
		}
		defer f.Close()
		_, err = f.WriteString("no")
		return "", err
	})
	try("truncate ro/data.txt", func() (string, error) { return "", os.Truncate("ro/data.txt", 0) })
	try("remove ro/data.txt", func() (string, error) { return "", os.Remove("ro/data.txt") })
	try("mkdir ro/dir", func() (string, error) { return "", os.Mkdir("ro/dir", 0o755) })
	try("rename ro/data.txt", func() (string, error) { return "", os.Rename("ro/data.txt", "ro/moved.txt") })
	try("chtimes ro/data.txt", func() (string, error) {
		return "", os.Chtimes("ro/data.txt", time.Unix(0, 0), time.Unix(0, 0))
	})
	try("read secret.txt", read("secret.txt"))
	try("read /secret.txt", read("/secret.txt"))
	try("read ../secret.txt", read("../secret.txt"))
	try("read ro/../secret.txt", read("ro/../secret.txt"))
	try("read /etc/passwd", read("/etc/passwd"))
	try("openat ro ../secret.txt", func() (string, error) {
		dir, err := os.Open("/ro")
		if err != nil {
			return "", err
		}
		defer dir.Close()
		fd, err := syscall.Openat(int(dir.Fd()), "../secret.txt", syscall.O_RDONLY, 0)
		if err != nil {
			return "", err
		}
		f := os.NewFile(uintptr(fd), "secret")
		defer f.Close()
		b, err := io.ReadAll(f)
		return string(b), err
	})
	try("read ro/link-out", read("ro/link-out"))
	try("read ro/abs-link", read("ro/abs-link"))
	try("list ro/dir-out", func() (string, error) {
		es, err := os.ReadDir("ro/dir-out")
		return fmt.Sprint(len(es)), err
	})
	try("symlink rw/evil", func() (string, error) { return "", os.Symlink("../secret.txt", "rw/evil") })
	try("read rw/evil", read("rw/evil"))
	try("link ro to rw", func() (string, error) { return "", os.Link("ro/data.txt", "rw/hard.txt") })
	try("write /new.txt", write("/new.txt", "no"))
	try("list /", func() (string, error) {
		es, err := os.ReadDir("/")
		return fmt.Sprint(len(es)), err
	})
	try("env", func() (string, error) {
		env := os.Environ()
		sort.Strings(env)
		return strings.Join(env, " "), nil
	})

	b, _ := json.MarshalIndent(res, "", "  ")
	os.Stdout.Write(append(b, '\n'))
}

// open reads or writes each file its arguments name (read:<path>,
// write:<path>) and reports what each attempt did, as probe does.
func open(args []string) {
	res := map[string]string{}
	for _, a := range args {
		how, p, _ := strings.Cut(a, ":")
		var err error
		s := ""
		if how == "write" {
			var f *os.File
			if f, err = os.OpenFile(p, os.O_WRONLY, 0); err == nil {
				f.Close()
			}
		} else {
			var b []byte
			b, err = os.ReadFile(p)
			s = strings.TrimSpace(string(b))
		}
		if err != nil {
			res[a] = "refused: " + err.Error()
		} else {
			res[a] = "ok " + s
		}
	}
	b, _ := json.MarshalIndent(res, "", "  ")
	os.Stdout.Write(append(b, '\n'))
}

// network sends a byte to addr over TCP and over UDP and reports what each
// attempt did, as probe does.
func network(addr string) {
	res := map[string]string{}
	for _, proto := range []string{"tcp", "udp"} {
		c, err := net.Dial(proto, addr)
		if err == nil {
			_, err = c.Write([]byte("x"))
			c.Close()
		}
		if err != nil {
			res[proto] = "refused: " + err.Error()
		} else {
			res[proto] = "ok"
		}
	}
	b, _ := json.MarshalIndent(res, "", "  ")
	os.Stdout.Write(append(b, '\n'))
}
