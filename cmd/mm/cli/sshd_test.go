package cli

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/mm-agent/mm/internal/mustend"
)

// sshd is an OpenSSH server of the test's own on 127.0.0.1: a throwaway
// host key and user key, its own sshd_config, and a client configuration
// (ssh -F) in which the Host "mmtest" reaches it with that key, checking
// the host key against a known_hosts file of its own. Nothing of the
// user's ssh setup is read or changed, and the remote mm saves its
// sessions in the sshd's folder (state/), not in the user's home.
type sshd struct {
	dir  string
	port int
	// clientConfig is the file for ssh -F.
	clientConfig string
	cmd          *exec.Cmd
}

// startSSHD starts sshd (Debian's openssh-server), or skips the test
// saying why it cannot. setEnv are VAR=value pairs sshd sets for every
// session, as a remote machine's own environment would.
func startSSHD(t testing.TB, setEnv ...string) *sshd {
	t.Helper()
	bin, err := exec.LookPath("sshd")
	if err != nil {
		bin = "/usr/sbin/sshd"
		if _, err := os.Stat(bin); err != nil {
			t.Skip("no sshd: install openssh-server (apt-get install openssh-server) to run the ssh tests")
		}
	}
	for _, tool := range []string{"ssh", "ssh-keygen"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: install openssh-client to run the ssh tests", tool)
		}
	}
	u, err := user.Current()
	if err != nil {
		t.Skipf("no current user for sshd: %v", err)
	}
	if u.Uid == "0" {
		// sshd run by root wants its privilege separation folder, which
		// the package's service would make at boot.
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Skipf("sshd cannot start: /run/sshd: %v", err)
		}
	}
	// Unix sockets and sshd's paths: a short folder, not t.TempDir()'s
	// long one (ControlPath is bounded by the socket path's 108 bytes).
	dir, err := os.MkdirTemp("", "mmssh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	s := &sshd{dir: dir}
	for _, k := range []string{"host_key", "user_key", "other_key"} {
		out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", k, "-f", filepath.Join(dir, k)).CombinedOutput()
		if err != nil {
			t.Fatalf("ssh-keygen: %v: %s", err, out)
		}
	}
	userPub := s.read(t, "user_key.pub")
	s.write(t, "authorized_keys", userPub)
	s.port = freePort(t)
	s.write(t, "sshd_config", fmt.Sprintf(`Port %d
ListenAddress 127.0.0.1
HostKey %s
PidFile %s
AuthorizedKeysFile %s
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
AllowUsers %s
LogLevel ERROR
PrintMotd no
PrintLastLog no
UseDNS no
SetEnv XDG_STATE_HOME=%s %s
`, s.port, s.path("host_key"), s.path("sshd.pid"), s.path("authorized_keys"), u.Username, s.path("state"), strings.Join(setEnv, " ")))
	s.knownHosts(t, "known_hosts", "host_key.pub")
	// Host mismatch: a known_hosts that expects another key.
	s.knownHosts(t, "other_known_hosts", "other_key.pub")
	s.write(t, "ssh_config", fmt.Sprintf(`Host mmtest
  HostName 127.0.0.1
  Port %d
  User %s
  IdentityFile %s
  IdentitiesOnly yes
  IdentityAgent none
  UserKnownHostsFile %s
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  BatchMode yes
  ConnectTimeout 10
Host mismatch
  HostName 127.0.0.1
  Port %d
  User %s
  IdentityFile %s
  IdentitiesOnly yes
  IdentityAgent none
  UserKnownHostsFile %s
  GlobalKnownHostsFile /dev/null
  StrictHostKeyChecking yes
  BatchMode yes
  ConnectTimeout 10
Host closed
  HostName 127.0.0.1
  Port %d
  User %s
  BatchMode yes
  ConnectTimeout 10
`, s.port, u.Username, s.path("user_key"), s.path("known_hosts"),
		s.port, u.Username, s.path("user_key"), s.path("other_known_hosts"),
		freePort(t), u.Username))
	s.clientConfig = s.path("ssh_config")

	cmd := exec.Command(bin, "-D", "-e", "-f", s.path("sshd_config"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Skipf("sshd cannot start: %v", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	s.cmd = cmd
	t.Cleanup(func() {
		s.kill()
		<-exited
	})
	up := mustend.Eventually(mustend.WaitBound, func() bool {
		select {
		case <-exited:
			return true
		default:
		}
		c, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(s.port)))
		if err == nil {
			c.Close()
		}
		return err == nil
	})
	select {
	case <-exited:
		t.Skipf("sshd cannot start: %s", strings.TrimSpace(stderr.String()))
	default:
	}
	if !up {
		t.Skipf("sshd does not listen on 127.0.0.1:%d: %s", s.port, stderr.String())
	}
	return s
}

// knownHosts writes file, a known_hosts trusting the key in pub for sshd.
func (s *sshd) knownHosts(t testing.TB, file, pub string) {
	f := strings.Fields(s.read(t, pub))
	s.write(t, file, fmt.Sprintf("[127.0.0.1]:%d %s %s\n", s.port, f[0], f[1]))
}

// kill kills sshd and every connection it serves: each connection's
// process leaves sshd's group (setsid), so its descendants are found by
// their parents.
func (s *sshd) kill() {
	pids := descendants(s.cmd.Process.Pid)
	_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
	for _, pid := range pids {
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
}

func (s *sshd) path(name string) string { return filepath.Join(s.dir, name) }

func (s *sshd) read(t testing.TB, name string) string {
	b, err := os.ReadFile(s.path(name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func (s *sshd) write(t testing.TB, name, body string) {
	if err := os.WriteFile(s.path(name), []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
}

// freePort is a TCP port of 127.0.0.1 nobody listens on, as of now.
func freePort(t testing.TB) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// descendants are the processes below pid, found through /proc.
func descendants(pid int) []int {
	parent := map[int]int{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid …: comm may hold spaces and parentheses.
		rest := string(b[strings.LastIndexByte(string(b), ')')+1:])
		f := strings.Fields(rest)
		if len(f) > 1 {
			parent[p], _ = strconv.Atoi(f[1])
		}
	}
	var out []int
	var walk func(int)
	walk = func(p int) {
		for c, pp := range parent {
			if pp == p {
				out = append(out, c)
				walk(c)
			}
		}
	}
	walk(pid)
	return out
}
