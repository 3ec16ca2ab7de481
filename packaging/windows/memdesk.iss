; Inno Setup 6 script for Memdesk on Windows (x64).
; Build the one-folder bundle first (dist\memdesk), then from the repository root:
;   iscc /DAppVersion=0.1.0 packaging\windows\memdesk.iss
; Output: dist\memdesk-<version>-setup.exe. Paths below are relative to this file.

#ifndef AppVersion
  #error Pass the version: iscc /DAppVersion=X.Y.Z packaging\windows\memdesk.iss
#endif

[Setup]
; The reverse-DNS app id keys the uninstall entry; never change it between releases.
AppId=io.github.memdesk.Memdesk
AppName=Memdesk
AppVersion={#AppVersion}
AppPublisher=The Memdesk developers
AppPublisherURL=https://github.com/memdesk/memdesk
; Per-user install by default (no administrator rights); the first page offers all users.
PrivilegesRequired=lowest
PrivilegesRequiredOverridesAllowed=dialog
; {autopf} is %LOCALAPPDATA%\Programs per user and Program Files for all users.
DefaultDirName={autopf}\Memdesk
DisableProgramGroupPage=yes
ArchitecturesAllowed=x64compatible
ArchitecturesInstallIn64BitMode=x64compatible
UninstallDisplayIcon={app}\memdesk.exe
UninstallDisplayName=Memdesk
OutputDir=..\..\dist
OutputBaseFilename=memdesk-{#AppVersion}-setup
Compression=lzma2
SolidCompression=yes
WizardStyle=modern

[Files]
Source: "..\..\dist\memdesk\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs

[Icons]
; The executable serves CLI and GUI; its console window hides when started from a shortcut.
Name: "{autoprograms}\Memdesk"; Filename: "{app}\memdesk.exe"; Parameters: "gui"; WorkingDir: "{app}"; Comment: "See and control what your AI assistant remembers"

[Run]
Filename: "{app}\memdesk.exe"; Parameters: "gui"; Description: "{cm:LaunchProgram,Memdesk}"; Flags: nowait postinstall skipifsilent

; No [UninstallDelete]: the uninstaller removes only the files it installed. Memdesk keeps
; its database, settings and logs under %LOCALAPPDATA%\memdesk, which stays.
