package launch

import (
	"archive/zip"
	"bytes"
	"strings"
	"testing"
)

// jarWith is a jar whose manifest is manifest (nil: no manifest).
func jarWith(t *testing.T, manifest []byte) string {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	if manifest != nil {
		f, err := w.Create("META-INF/MANIFEST.MF")
		if err != nil {
			t.Fatal(err)
		}
		f.Write(manifest)
	}
	f, err := w.Create("Main.class")
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{0xca, 0xfe, 0xba, 0xbe})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The attacks of attack8 on java: each changes what a reviewed `java …`
// server runs through a path the model did not bind.
func TestScopeJava(t *testing.T) {
	manifest := "Manifest-Version: 1.0\r\nMain-Class: Main\r\nClass-Path: lib/dep.jar \r\n classes/ ../shared/x.jar\r\n\r\n"
	runScopeCases(t, []scopeCase{
		{name: "a main class loads from the default class path, the working directory", cmd: "java", args: []string{"Main"},
			fs:  mapFS{"Main.class": "\xca\xfe", "pkg/Helper.class": "\xca\xfe"},
			has: []string{"C* ./ (java code)"}},
		{name: "in a subdirectory, the default class path is that directory", cmd: "java", args: []string{"pkg.Main"}, launch: "srv",
			fs:  mapFS{"srv/pkg/Main.class": "\xca\xfe"},
			has: []string{"C* srv/ (java code)"}, hasNot: []string{"C* ./ (java code)"}},
		{name: "-cp replaces the default class path", cmd: "java", args: []string{"-cp", "build", "Main"},
			fs:  mapFS{"build/Main.class": "\xca\xfe"},
			has: []string{"T build/"}, hasNot: []string{"C* ./ (java code)"}},
		{name: "CLASSPATH replaces the default class path", cmd: "java", args: []string{"Main"}, env: map[string]string{"CLASSPATH": "build"},
			fs:  mapFS{"build/Main.class": "\xca\xfe"},
			has: []string{"T build/"}, hasNot: []string{"C* ./ (java code)"}},
		{name: "a class path wildcard names the jars of its directory", cmd: "java", args: []string{"-cp", "lib/*", "Main"},
			fs:  mapFS{"lib/a.jar": "PK"},
			has: []string{"T lib/"}},
		{name: "a source file compiles the sources beside it and loads classes from the working directory", cmd: "java", args: []string{"src/Server.java"},
			fs:  mapFS{"src/Server.java": "public class Server {}", "src/Helper.java": "class Helper {}", "Helper.class": "\xca\xfe"},
			has: []string{"F* src/Server.java", "C* src/ (java code)", "C* ./ (java code)"}},
		{name: "a source file's package puts the source root above it", cmd: "java", args: []string{"src/com/x/Main.java", "--port", "1"}, launch: "app",
			fs:  mapFS{"app/src/com/x/Main.java": "/* c */\npackage com.x;\nclass Main {}", "app/src/com/y/Util.java": "package com.y; class Util {}"},
			has: []string{"F* app/src/com/x/Main.java", "C* app/src/ (java code)"}, hasNot: []string{"C* app/src/com/x/ (java code)"}},
		{name: "an argument file is read as arguments", cmd: "java", args: []string{"@opts.txt"},
			fs:  mapFS{"opts.txt": "# options\n-cp \"lib\" Main\n", "lib/Main.class": "\xca\xfe"},
			has: []string{"F* opts.txt", "T lib/"}, hasNot: []string{"C* ./ (java code)"}},
		{name: "an argument file that cannot be read binds the repository", cmd: "java", args: []string{"@gone.txt"},
			fs:  mapFS{},
			has: []string{"F* gone.txt", "T ./"}, gap: true},
		{name: "JDK_JAVA_OPTIONS is read before the arguments", cmd: "java", args: []string{"Main"}, env: map[string]string{"JDK_JAVA_OPTIONS": "-cp build"},
			fs:  mapFS{"build/Main.class": "\xca\xfe"},
			has: []string{"T build/"}, hasNot: []string{"C* ./ (java code)"}},
		{name: "-jar follows the manifest's Class-Path", cmd: "java", args: []string{"-jar", "app/server.jar"},
			fs: mapFS{"app/server.jar": jarWith(t, []byte(manifest)), "app/lib/dep.jar": jarWith(t, nil), "app/classes/A.class": "\xca\xfe",
				"shared/x.jar": jarWith(t, []byte("Manifest-Version: 1.0\nClass-Path: more/\n"))},
			has:    []string{"F* app/server.jar", "F* app/lib/dep.jar", "T app/classes/", "F* shared/x.jar", "T shared/more/"},
			hasNot: []string{"C* ./ (java code)", "T ./"}},
		{name: "-jar of a jar without a Class-Path binds the jar alone", cmd: "java", args: []string{"-jar", "server.jar"},
			fs:     mapFS{"server.jar": jarWith(t, []byte("Manifest-Version: 1.0\nMain-Class: Main\n")), "other.class": "\xca\xfe"},
			has:    []string{"F* server.jar"},
			hasNot: []string{"C* ./ (java code)", "T ./"}},
		{name: "-jar of a file that is no zip binds the repository", cmd: "java", args: []string{"-jar", "server.jar"},
			fs:  mapFS{"server.jar": "not a zip"},
			has: []string{"F* server.jar", "T ./"}, gap: true},
	})
}

// An argument file reads as the java launcher reads it.
func TestJavaArgWords(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"-cp lib Main", []string{"-cp", "lib", "Main"}},
		{"# a comment -cp x\n-cp 'a b' Main", []string{"-cp", "a b", "Main"}},
		{`-Dx="" "lib\\dir" "one \
      two"`, []string{"-Dx=", `lib\dir`, "one two"}},
		{"a#b Main", []string{"a#b", "Main"}},
		{"", nil},
	} {
		got := javaArgWords(c.in)
		if strings.Join(got, "|") != strings.Join(c.want, "|") || len(got) != len(c.want) {
			t.Errorf("javaArgWords(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
