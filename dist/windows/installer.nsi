; The Windows installer of invoice-desk: the one NSIS script, built on Linux with Debian's
; makensis (dist/windows/build-installer.sh), here and in the release workflow.
;   makensis -DVERSION=0.1.0 -DEXE=path\to\invoice-desk.exe -DOUTFILE=setup.exe
;            [-DSIGN="command %1"] dist/windows/installer.nsi
; Per-machine, into Program Files (64-bit); a Start-menu shortcut; an entry in "Apps &
; features" with its uninstaller. Installing over an installed version runs that version's
; uninstaller first (silently), so no file of the old version is left behind. Uninstalling
; removes the program and never the clerk's data (profiles, journal, settings, keyring
; entries): the uninstaller says so and where that data is. Pages in Spanish when Windows
; is in any Spanish, else English. No file association: the app opens no document type of
; its own, and taking over .csv or .xlsx would take them from Excel.
; A 64-bit installer for a 64-bit program (Windows itself refuses it on 32-bit Windows).
Target amd64-unicode
ManifestDPIAware true
SetCompressor /SOLID lzma
RequestExecutionLevel admin

!ifndef VERSION
  !error "VERSION is required (-DVERSION=0.1.0)"
!endif
!ifndef EXE
  !error "EXE is required (-DEXE=path/to/invoice-desk.exe)"
!endif
!ifndef OUTFILE
  !error "OUTFILE is required (-DOUTFILE=invoice-desk-0.1.0-setup.exe)"
!endif
; Windows' file version has four numbers; build-installer.sh derives it from VERSION.
!ifndef VERSION4
  !define VERSION4 "${VERSION}.0"
!endif
!ifndef ICON
  !define ICON "../icons/icon.ico"  ; makensis works in the script's folder
!endif

!define PRODUCT "invoice-desk"
!define PUBLISHER "invoice-desk developers"
!define UNINST_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\invoice-desk"

; Signing: the uninstaller is written into the installer, so it is signed as it is made;
; the installer itself after it is written. SIGN is a command with %1 for the file.
!ifdef SIGN
  !uninstfinalize '${SIGN}' = 0
  !finalize '${SIGN}' = 0
!endif

!include "MUI2.nsh"
!include "LogicLib.nsh"
!include "FileFunc.nsh"

Name "${PRODUCT}"
OutFile "${OUTFILE}"
InstallDir "$PROGRAMFILES64\${PRODUCT}"
BrandingText "${PRODUCT} ${VERSION}"

VIProductVersion "${VERSION4}"
VIFileVersion "${VERSION4}"
VIAddVersionKey /LANG=0 "ProductName" "${PRODUCT}"
VIAddVersionKey /LANG=0 "ProductVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "CompanyName" "${PUBLISHER}"
VIAddVersionKey /LANG=0 "LegalCopyright" "${PUBLISHER}"
VIAddVersionKey /LANG=0 "FileDescription" "${PRODUCT} ${VERSION} installer"

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_ABORTWARNING
!define MUI_FINISHPAGE_RUN "$INSTDIR\${PRODUCT}.exe"

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH

; The first page of the uninstaller says what stays.
!define MUI_UNCONFIRMPAGE_TEXT_TOP "$(KeepsData)"
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES

; The first language is the one used when Windows' is neither (as the app does).
!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "Spanish"

LangString KeepsData ${LANG_ENGLISH} "${PRODUCT} will be removed from this computer. Your profiles, invoice journal and settings in $APPDATA\${PRODUCT} and your passwords in Windows Credential Manager are kept; delete them yourself if you no longer need them."
LangString KeepsData ${LANG_SPANISH} "Se quitará ${PRODUCT} de este equipo. Sus perfiles, el registro de facturas y la configuración en $APPDATA\${PRODUCT} y sus contraseñas en el Administrador de credenciales de Windows se conservan; bórrelos usted si ya no los necesita."
LangString OldNotRemoved ${LANG_ENGLISH} "The installed version of ${PRODUCT} could not be removed. Close ${PRODUCT} and try again."
LangString OldNotRemoved ${LANG_SPANISH} "No se pudo quitar la versión instalada de ${PRODUCT}. Cierre ${PRODUCT} y vuelva a intentarlo."

Function .onInit
  ; Installed before: install where it is.
  ReadRegStr $0 HKLM "${UNINST_KEY}" "InstallLocation"
  ${If} $0 != ""
    StrCpy $INSTDIR $0
  ${EndIf}
FunctionEnd

Section "${PRODUCT}"
  SectionIn RO
  SetShellVarContext all
  ; An older (or the same) version: its own uninstaller removes its files and entries
  ; first, in place (_?=), and keeps the clerk's data as it always does.
  ReadRegStr $0 HKLM "${UNINST_KEY}" "InstallLocation"
  ${If} $0 != ""
  ${AndIf} ${FileExists} "$0\uninstall.exe"
    DetailPrint "$0\uninstall.exe /S"
    ExecWait '"$0\uninstall.exe" /S _?=$0' $1
    ${If} $1 != 0
      MessageBox MB_ICONSTOP "$(OldNotRemoved)" /SD IDOK
      Abort
    ${EndIf}
    ; Run in place, the old uninstaller cannot delete itself.
    Delete "$0\uninstall.exe"
    RMDir "$0"
  ${EndIf}

  SetOutPath "$INSTDIR"
  File "/oname=${PRODUCT}.exe" "${EXE}"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  CreateShortCut "$SMPROGRAMS\${PRODUCT}.lnk" "$INSTDIR\${PRODUCT}.exe" "" "$INSTDIR\${PRODUCT}.exe" 0

  WriteRegStr HKLM "${UNINST_KEY}" "DisplayName" "${PRODUCT}"
  WriteRegStr HKLM "${UNINST_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKLM "${UNINST_KEY}" "Publisher" "${PUBLISHER}"
  WriteRegStr HKLM "${UNINST_KEY}" "DisplayIcon" "$INSTDIR\${PRODUCT}.exe"
  WriteRegStr HKLM "${UNINST_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKLM "${UNINST_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKLM "${UNINST_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKLM "${UNINST_KEY}" "NoModify" 1
  WriteRegDWORD HKLM "${UNINST_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  WriteRegDWORD HKLM "${UNINST_KEY}" "EstimatedSize" $0
SectionEnd

Section "Uninstall"
  SetShellVarContext all
  Delete "$SMPROGRAMS\${PRODUCT}.lnk"
  Delete "$INSTDIR\${PRODUCT}.exe"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"
  DeleteRegKey HKLM "${UNINST_KEY}"
  ; Profiles, journal and settings are the clerk's, in the user's folder: never ours.
  SetShellVarContext current
  DetailPrint "$(KeepsData)"
SectionEnd
