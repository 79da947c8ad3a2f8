# invoice-desk, es-CL. Keys are shared with the other language file.
action-create = crear la factura
action-void = anular la factura
amount-ambiguous = "{ $text }" es ambiguo: podría ser { $a } o { $b }. Escríbalo sin punto, o con coma para decimales.
amount-bad-grouping = "{ $text }" tiene mal puestos los separadores de miles.
amount-empty = Ingrese un monto.
amount-not-a-number = "{ $text }" no es un número. Use dígitos, "." entre miles y "," para decimales.
amount-not-positive = El monto debe ser mayor que cero.
amount-too-large = El monto es demasiado grande.
amount-too-precise = { $max ->
    [0] Los montos en { $currency } no llevan decimales; "{ $text }" tiene { $got }.
    [one] Los montos en { $currency } admiten como máximo 1 decimal; "{ $text }" tiene { $got }.
   *[other] Los montos en { $currency } admiten como máximo { $max } decimales; "{ $text }" tiene { $got }.
}
cancel = Cancelar
col-amount = Monto
col-currency = Moneda
col-due = Vencimiento
col-external = Referencia externa
col-invoice = Factura
col-status = Estado
connect-first = Primero conecte un perfil (Credenciales).
cr-account-currency = Moneda de la cuenta (predeterminada)
cr-account-currency-code = Moneda de la cuenta (predeterminada, { $code })
cr-account-key = llave de cuenta { $key }
cr-amount-help = Escriba el monto: "." entre miles, "," antes de los decimales.
cr-another = Emitir otra factura
cr-check = Verificar si se creó
cr-checking = Revisando las facturas del cliente…
cr-create = Crear factura
cr-created = Factura { $id } creada.
cr-enter-customer = Ingrese el id del cliente.
cr-issuing-with = Emitiendo con el perfil "{ $profile }" ({ $key }).
cr-new-reference = Nueva referencia
cr-no-account-key = sin llave de cuenta
cr-no-reference = Sin referencia, no se puede reconocer una factura cuyo resultado se desconoce.
cr-no-reference-check = Esta factura no tenía referencia externa, así que no se puede reconocer. Revise las facturas del cliente antes de enviarla de nuevo.
cr-not-created = No se creó: ninguna factura de este cliente tiene esta referencia externa. Puede enviarla de nuevo.
cr-reads-account = = { $amount } (la moneda de la cuenta, { $code })
cr-reads-code = = { $amount } { $code }
cr-reads-unknown = = { $amount } en la moneda de la cuenta
cr-sandbox-customers = Clientes del sandbox
cr-sandbox-customers-hint = Completar con un cliente del sandbox
cr-send-again = Ya revisé: enviarla de nuevo
cr-sending = Enviando…
cr-was-created = Sí se creó: factura { $id }. No hay que enviarla de nuevo.
cred-connection-works = La conexión funciona: el servicio respondió.
cred-delete = Eliminar perfil
cred-delete-body = El perfil "{ $name }" y su secreto guardado se eliminarán de este computador.
cred-delete-title = ¿Eliminar el perfil?
cred-enter-secret = Ingrese { $what }.
cred-key-accepted = La llave de API fue aceptada.
cred-new-profile = Nuevo perfil
cred-opening-keyring = Abriendo el llavero del sistema…
cred-profile = Perfil
cred-profiles = Perfiles
cred-sandbox-note = El sandbox integrado corre en este computador: su dirección y credenciales se configuran solas.
cred-save-first = Primero guarde los cambios.
cred-saved-keyring = Guardado. Los secretos están en el llavero del sistema ({ $store }).
cred-saved-session = Guardado, pero no hay llavero del sistema: el secreto se conserva solo hasta cerrar la aplicación.
cred-secret-not-saved = No se pudo guardar el secreto: { $error }
cred-testing = Probando…
cred-token-issued = El proveedor de identidad dio acceso, vigente hasta { $time }.
cred-use-first = Primero use este perfil.
cred-use-profile = Usar este perfil
cu-cancel-export = Cancelar exportación
cu-currency-missing = falta
cu-dialog-title = Exportar facturas a CSV
cu-done = { $count ->
    [one] { $count } factura
   *[other] { $count } facturas
} del cliente { $customer }.
cu-export = Exportar CSV… ({ $count ->
    [one] { $count } fila
   *[other] { $count } filas
})
cu-export-cancelled = Exportación cancelada; no se escribió ningún archivo.
cu-export-failed = No se pudo escribir el archivo { $path }: { $error }. No se cambió nada.
cu-exported = { $count ->
    [one] Se exportó { $count } factura
   *[other] Se exportaron { $count } facturas
} a { $path }.
cu-file = Archivo
cu-filter = Filtro
cu-filter-hint = id, referencia, fecha, monto…
cu-hide-void = Ocultar anuladas
cu-load = Cargar facturas
cu-loading = Cargando… { $pages ->
    [one] { $pages } página
   *[other] { $pages } páginas
}, { $count ->
    [one] { $count } factura
   *[other] { $count } facturas
} hasta ahora
cu-no-file = No se eligió ningún archivo. Si no apareció la ventana para guardar, escriba la ruta del archivo en la fila de abajo y presione Guardar archivo.
cu-table = Facturas del cliente
cu-open-row = Clic para abrir en Consultar
cu-open-row-overdue = Clic para abrir en Consultar. Vencida: no pagada y pasada su fecha de vencimiento.
cu-partial = { $count ->
    [one] Llegó { $count } factura antes del problema; se muestra abajo.
   *[other] Llegaron { $count } facturas antes del problema; se muestran abajo.
}
cu-save-to-path = Guardar en una ruta
cu-shown = { $shown } de { $total } visibles
cu-sort-by = Ordenar por esta columna
cu-sorted-asc = Orden ascendente; clic para invertir
cu-sorted-desc = Orden descendente; clic para invertir
cu-sorting = Ordenando…
cu-stopped = Detenido: { $count ->
    [one] se cargó { $count } factura
   *[other] se cargaron { $count } facturas
} antes de cancelar.
cu-totals = Totales (sin anuladas):
currency-label = moneda { $code }
currency-missing = El servicio no indicó la moneda de esta factura.
delete-ellipsis = Eliminar…
details = Detalles
det-http-status = Estado HTTP: { $status }
det-service-code = Código del servicio: { $code }
det-service-message = Mensaje del servicio: { $message }
det-cause = Causa: { $cause }
det-body = Respuesta: { $body }
dialect-excel = Excel (español, Chile)
dialect-standard = Estándar (RFC 4180)
err-cancelled = Cancelado.
err-conflict = El servicio lo rechazó: no corresponde al estado actual de la factura.
err-connection = No se pudo contactar al servicio. Revise la conexión de red y la URL base. No se envió nada.
err-credentials-rejected = El proveedor de identidad rechazó el id o el secreto del cliente. Revíselos en el perfil.
err-decode = No se pudo entender la respuesta del servicio.
err-forbidden = Estas credenciales no tienen permiso para esto. Pida acceso al operador del servicio.
err-insecure-url = La dirección { $url } no es segura. Use una dirección https:// (http:// solo se permite para este computador).
err-listing-runaway = La lista de facturas no terminaba: el servicio seguía enviando páginas, así que se detuvo después de { $pages ->
    [one] { $pages } página
   *[other] { $pages } páginas
}.
err-no-sandbox = Esta versión no incluye el sandbox.
err-no-secret = No hay { $what } guardado para el perfil "{ $profile }". Ingréselo en Credenciales y guarde.
err-not-found = No existe { $what }.
err-outcome-unknown = La solicitud para { $action } se envió pero no llegó respuesta, así que no sabemos si se realizó. Verifique antes de intentar de nuevo.
err-rate-limited = El servicio está ocupado y pide esperar.
err-sandbox-start = No se pudo iniciar el sandbox: { $error }
err-server = El servicio tuvo un problema interno. Intente más tarde.
err-timeout = El servicio no respondió a tiempo. Intente de nuevo.
err-token-failed = El proveedor de identidad falló al dar acceso. Intente más tarde.
err-token-rate-limited = El proveedor de identidad está limitando la frecuencia de inicio de sesión.
err-token-rejected = El proveedor de identidad se negó a dar acceso.
err-token-unreachable = No se pudo contactar al proveedor de identidad. Revise la conexión de red y la URL de autenticación.
err-too-large = La respuesta del servicio era demasiado grande.
err-unauthorized = El servicio no aceptó nuestras credenciales. Revise las credenciales del perfil.
err-unexpected = El servicio respondió de forma inesperada (estado { $status }).
err-validation = El servicio no aceptó los datos.
err-wrong-audience = El proveedor de identidad no acepta la audiencia del perfil. Confírmela con el operador del servicio.
f-account-currency = Moneda de la cuenta
f-account-key = Llave de cuenta
f-amount = Monto
f-amount-hint = p. ej. 1.234.567 o 12,3456
f-api-key = Llave de API
f-audience = Audiencia
f-audience-hint = la que asignó el operador
f-auth-url = URL de autenticación
f-authentication = Autenticación
f-base-url = URL base
f-client-id = Id de cliente
f-client-secret = Secreto del cliente
f-currency = Moneda
f-customer-id = Id de cliente
f-due-date = Vencimiento
f-due-date-hint = DD-MM-AAAA
f-external-ref = Referencia externa
f-extra = Campos adicionales
f-extra-hint = nombre=valor, uno por línea; metadatos.nombre=valor para los metadatos
f-form-body = Pedir el acceso como formulario (solo si el proveedor lo exige)
f-header = Nombre del encabezado
f-invoice-id = Id de factura
f-keep-secret = deje vacío para conservar el guardado
f-name = Nombre
f-name-hint = p. ej. Producción
f-oauth = Credenciales de cliente OAuth
f-product-id = Id de producto
lk-already-void = Esta factura ya está anulada.
lk-amount = Monto
lk-cannot-undo = La anulación no se puede deshacer.
lk-check = Verificar la factura
lk-void-unknown-for = No se sabe si la anulación de la factura { $id } se realizó: verifique la factura antes de nada.
lk-confirm-title = ¿Anular esta factura?
lk-customer = Cliente
lk-invoice = Factura
lk-look-up = Consultar
lk-looking-up = Consultando…
lk-paid = Una factura pagada no se puede anular.
lk-void = Anular…
lk-void-did-not = La factura no está anulada: la anulación no se realizó. Puede anularla de nuevo.
lk-void-invoice = Anular factura
lk-void-maybe = No se sabe si la anulación se realizó ({ $error }). Verifique la factura.
lk-void-went-through = La factura está anulada: la anulación se realizó.
lk-voided = La factura { $id } fue anulada.
lk-voiding = Anulando…
menu-help = Ayuda
menu-language = Idioma
menu-shortcuts = Atajos de teclado
menu-tab-hint = Tab pasa de un campo a otro; Espacio o Enter presiona el botón con foco.
menu-theme = Tema
menu-view = Ver
msg-choose-profile = Primero elija un perfil.
nf-customer = el cliente con id { $id }
nf-invoice = la factura con id { $id }
nf-other = tal recurso
nf-account = la cuenta de esta llave de cuenta
not-known = No se sabe
open-in-lookup = Abrir en Consultar
save = Guardar
sc-close = Cerrar un diálogo
sc-export = Exportar las facturas del cliente (Excel o CSV)
sc-lookup = Consultar una factura
sc-new = Nueva factura
sc-search = Buscar en todo (factura, referencia, RUT, cliente, monto)
sc-quit = Salir
sc-submit = Enviar el formulario actual
sc-zoom = Acercar / alejar
secret-api-key = llave de API
secret-client = secreto del cliente
status-open = Abierta
status-paid = Pagada
status-unknown = Estado desconocido
status-void = Anulada
tab-create = Nueva factura
tab-credentials = Credenciales
tab-customers = Facturas del cliente
tab-lookup = Consultar y anular
test-connection = Probar conexión
theme-dark = Oscuro
theme-light = Claro
theme-system = Como el sistema
token-api-key = Llave de API (aún no revisada)
token-failed = Acceso: falló
token-fetching = Acceso: pidiéndolo…
token-none = Acceso: aún no pedido
token-valid = Acceso vigente
token-valid-until = Acceso vigente hasta { $time }
top-connecting = Conectando…
top-no-profile = ninguno
top-not-connected = Sin conexión
top-profile = Perfil
try-sandbox = Probar el sandbox
wait-moment = Intente de nuevo en un momento.
wait-seconds = Intente de nuevo en { $seconds ->
    [one] { $seconds } segundo
   *[other] { $seconds } segundos
}.
welcome-add = Agregar un perfil
welcome-add-body = Conéctese al servicio real con las credenciales que le entregó el operador.
welcome-body = Emita, consulte y anule facturas, y exporte las facturas de un cliente a Excel o CSV.
welcome-sandbox = Una copia de práctica del servicio en este computador, con clientes de ejemplo. No se envía nada a ninguna parte.
welcome-title = Bienvenido a invoice-desk
wait-minutes = Intente de nuevo en unos { $minutes ->
    [one] { $minutes } minuto
   *[other] { $minutes } minutos
}.
err-token-timeout = El proveedor de identidad no respondió en { $seconds } s. Intente más tarde; si sigue pasando, avise al operador del servicio.
err-certificate = Este computador no confía en el certificado del servidor ({ $reason }). Si su organización inspecciona el tráfico seguro, pida a TI que instale su certificado en este computador.
err-connection-lost = La conexión con el servicio se cortó antes de que llegara su respuesta. Intente de nuevo.
err-done-unreadable = El servicio aceptó la solicitud para { $action } (respondió que sí), pero su respuesta no se pudo leer. Lo más probable es que se haya hecho: verifique el resultado antes de intentar de nuevo.
err-listing-too-long = La lista tiene más de { $cap ->
        [one] 1 factura
       *[other] { $cap } facturas
    }, el máximo que la aplicación lee de una vez; se detuvo ahí.
cred-connection-unsure = Un servidor respondió en esta dirección, pero no como responde el servicio de facturación (su respuesta de "no encontrado" no es la del servicio), así que no se puede saber si es el servicio de facturación. Revise la URL base.
cert-unknown-issuer = emisor desconocido
cert-expired = vencido o aún no válido
cert-wrong-name = emitido para otro nombre
expiry-today = las { $time }
expiry-day = el { $date } a las { $time }
err-internal = Algo falló dentro de la aplicación ({ $error }). No se hizo nada más; intente de nuevo.
set-base-url = URL base
set-auth-url = URL de autenticación
set-client-id = id de cliente
set-client-secret = secreto de cliente
set-audience = audiencia
set-api-key = llave de API
set-invoice-id = id de factura
set-customer-id = id de cliente
in-missing = Ingrese { $what }.
in-not-valid = { $what } no es válido.
in-bad-address = { $what } "{ $text }" no es una dirección válida.
in-wrong-scheme = { $what } debe empezar con https:// (empieza con { $scheme }://).
in-bad-header = "{ $name }" no es un nombre de encabezado válido.
in-unsendable-key = La llave de API tiene caracteres que no se pueden enviar.
in-no-certificate-store = No se pueden establecer conexiones seguras: no se pudo usar el almacén de certificados de este computador. Pida a TI que lo revise (en Linux, el paquete ca-certificates).
in-too-many-decimals = { $max ->
    [0] Los montos en { $currency } no llevan decimales.
    [one] Los montos en { $currency } admiten como máximo 1 decimal.
   *[other] Los montos en { $currency } admiten como máximo { $max } decimales.
}
in-bad-due-date = El vencimiento "{ $date }" no es una fecha de la forma AAAA-MM-DD.
in-reserved-field = El campo adicional "{ $name }" tiene su propio lugar en el formulario; quítelo de los campos adicionales.
in-unnamed-field = Un campo adicional no tiene nombre.
pr-no-name = Dé un nombre al perfil.
pr-exists = Ya existe un perfil llamado "{ $name }".
pr-unreadable = No se pudo leer el archivo de perfiles { $path }. Se dejó como estaba; pida a TI que lo revise.
pr-unsaved = No se pudieron guardar los perfiles en { $path }.
pr-keyring-read = No se pudo leer el secreto desde el llavero del sistema. Desbloquee el llavero o ingrese el secreto de nuevo en Credenciales.
as-no-equals = "{ $item }": escriba nombre=valor.
as-no-name = "{ $item }": el campo no tiene nombre.
as-metadata-long = "{ $name }": los valores de metadata tienen un máximo de 256 caracteres.
date-calendar = Calendario
date-plus-30 = +30 días
date-plus-60 = +60 días
date-end-of-month = Fin de mes
date-prev-month = Mes anterior
date-next-month = Mes siguiente
date-long = { $weekday } { $day } de { $month } de { $year }
date-format-es = "{ $text }" no es una fecha: escríbala como DD-MM-AAAA (o AAAA-MM-DD).
date-format-en = "{ $text }" no es una fecha: escríbala como AAAA-MM-DD.
date-no-such-day = { $month } de { $year } no tiene día { $day }.
date-no-such-month = No existe el mes { $month }.
date-year = El año { $year } parece mal escrito.
weekday-1 = lunes
weekday-2 = martes
weekday-3 = miércoles
weekday-4 = jueves
weekday-5 = viernes
weekday-6 = sábado
weekday-7 = domingo
weekday-short-1 = lu
weekday-short-2 = ma
weekday-short-3 = mi
weekday-short-4 = ju
weekday-short-5 = vi
weekday-short-6 = sá
weekday-short-7 = do
month-1 = enero
month-2 = febrero
month-3 = marzo
month-4 = abril
month-5 = mayo
month-6 = junio
month-7 = julio
month-8 = agosto
month-9 = septiembre
month-10 = octubre
month-11 = noviembre
month-12 = diciembre
cred-active = en uso
cred-active-hint = Este es el perfil en uso: con él se emiten, buscan y listan las facturas.
cred-store-keyring = Los secretos se guardan en el llavero del sistema ({ $store }).
cred-store-session = Este computador no tiene llavero del sistema. Los secretos que ingrese se conservan solo hasta cerrar la aplicación; nunca se escriben en un archivo. Pida a TI que configure un llavero para guardarlos.
store-secret-service = llavero de GNOME o KDE
store-keychain = Llavero de macOS
store-windows = Administrador de credenciales de Windows
check-not-yet = Conexión: aún no revisada.
check-working = Conexión: funciona (revisada a las { $time }).
check-failed = La conexión falló a las { $time }: { $why }
err-validation-fields = El servicio no aceptó los datos. Revise: { $fields }.
err-already-void = La factura ya estaba anulada.
err-paid-cannot-void = La factura está pagada: una factura pagada no se puede anular.
cr-no-such-customer = No existe el cliente { $id }.
cr-no-such-account = El servicio no conoce la llave de cuenta { $key } de este perfil. Revísela en Credenciales.
cr-service-refused = El servicio no aceptó este valor (detalles abajo).
check-failed-short = La conexión falló a las { $time }
field-id = Id
field-customer = Cliente
field-customer-id = Cliente
field-product-id = Producto
field-due-date = Vencimiento
field-amount = Monto
field-currency-code = Moneda
field-is-paid = Pagada
field-is-void = Anulada
field-status = Estado en el servicio
field-link-payment = Enlace de pago
field-invoice-external-id = Referencia externa
field-metadata = Metadatos
yes = Sí
no = No
amount-unreadable = { $raw } (no es un monto legible)
cu-file-name = facturas-{ $customer }.csv
cu-file-customer = cliente
cu-open-folder = Abrir carpeta
dest-is-folder = { $path } es una carpeta: indique un nombre de archivo.
dest-no-folder = La carpeta { $path } no existe. Elija otra o créela primero.
dest-read-only = { $path } es de solo lectura: no se puede reemplazar.
dest-not-writable = No se puede escribir en { $path }.
cr-missing = Para crear la factura, complete: { $fields }.
cr-fix-marked = Para crear la factura, corrija lo marcado en rojo.
cu-sort-amount-hint = Los montos se ordenan dentro de cada moneda, una moneda después de la otra (pesos y UF no se comparan entre sí).
lk-back-to-list = Volver a la lista
f-currencies = Monedas ofrecidas
cred-bad-currency = "{ $code }" no es un código de moneda ISO 4217 (como CLP, CLF, USD).
currency-not-iso = moneda "{ $code }" (no es un código ISO 4217: montos tal como llegaron)
doc-ok = correcto
doc-problem = PROBLEMA
doc-all-well = Todo está bien.
doc-not-well = Hay algo que revisar (ver PROBLEMA arriba).
doc-version = Versión
doc-keyring = Llavero
doc-keyring-ok = { $store }: se escribió, leyó y borró un secreto de prueba.
doc-keyring-none = no se puede usar un llavero del sistema: los secretos se conservan solo mientras la aplicación está abierta.
doc-keyring-refused = { $store } no aceptó guardar un secreto.
doc-keyring-unreliable = { $store } no devolvió el secreto de prueba que se le dio.
doc-profiles = Perfiles
doc-data = Datos
doc-log = Registro para soporte
doc-detail = en palabras del sistema: { $detail }
doc-log-off = Desactivado (INVOICE_DESK_LOG_DIR está vacío)
doc-no-folder = no se encontró una carpeta para esto en este sistema.
doc-folder-ok = { $path } (se puede escribir)
doc-folder-bad = no se puede escribir en { $path }.
doc-certificates = Certificados
doc-certificates-ok = se puede usar el almacén de certificados del sistema para conexiones seguras.
doc-certificates-bad = no se puede usar el almacén de certificados del sistema.
menu-diagnostics = Diagnóstico…
diag-title = Diagnóstico
diag-running = Revisando…
diag-copy = Copiar
diag-close = Cerrar

# El registro (cada emisión, anulación y exportación, anotada antes)
journal-to-check = { $count ->
    [one] 1 por revisar
   *[other] { $count } por revisar
}
journal-to-check-hint = Emisiones o anulaciones cuyo resultado no se conoce (no llegó respuesta, o la aplicación se cerró antes). Revíselas antes de volver a intentarlo.
journal-to-check-hint-shared = Emisiones o anulaciones de todo el equipo (registro compartido) cuyo resultado no se conoce (no llegó respuesta, o la aplicación se cerró antes). Cualquiera puede revisarlas.
journal-down-since = El registro compartido no responde desde las { $time }; se reintenta…
journal-down-hint = No se emite, anula ni envía nada mientras el registro del equipo no pueda anotarlo. La aplicación vuelve a intentarlo cada pocos segundos y sigue sola cuando el servidor vuelve (tras un reinicio o un cambio al servidor de respaldo).
journal-check-now = Revisar ahora
journal-checked = Revisado: { $settled ->
    [one] 1 resuelta
   *[other] { $settled } resueltas
}, { $left ->
    [one] 1 aún por revisar
   *[other] { $left } aún por revisar
}.
journal-check-failed = No se pudo revisar: no se puede leer el registro.
journal-not-sent = No se envió nada: el registro, donde se anota cada emisión y anulación antes de enviarla, no se puede escribir.
tab-activity = Actividad
journal-unreadable = No se puede leer el registro.
journal-busy = Otro programa lo está usando; inténtelo de nuevo en un momento.
journal-disk-full = El disco está lleno: libere espacio y vuelva a intentarlo.
journal-read-only = No se permite escribir en él: revise los permisos del archivo y de su carpeta, o si el disco es de solo lectura.
journal-corrupt = El archivo está dañado: consérvelo y consulte a soporte.
journal-unreachable = No se puede llegar al servidor del registro compartido: revise la red o consulte a quien administra el servidor. No se envía nada hasta que se pueda.
journal-untrusted = Este computador no confía en el certificado del servidor del registro compartido: pida a TI que instale el certificado de su organización, o que le den al servidor uno en que este computador confíe. No se envía nada hasta entonces.
journal-cannot-open = No se puede abrir el registro.
journal-cannot-write = No se puede escribir en el registro.
journal-too-new = El registro lo creó una versión más nueva de invoice-desk: actualice esta.
journal-damaged = El registro está dañado: conserve el archivo y consulte a soporte.
act-title = Actividad: lo emitido, anulado, exportado y enviado por correo en este computador
act-email-invoice = Factura { $id }
act-email-statement = Estado de cuenta de { $month }
act-email-reminder = Recordatorio, { $days ->
        [one] 1 día
       *[other] { $days } días
    } de atraso ({ $month })
act-title-shared = Actividad: lo emitido, anulado, exportado y enviado por correo por el equipo (registro compartido)
act-days = Días
act-since = Del
act-until = al
act-since-hint = primer día
act-until-hint = último día
act-today = Hoy
act-all-days = Todos los días
act-action = Acción
act-outcome = Resultado
act-any = Cualquiera
act-search = Buscar
act-search-hint = cliente, id de factura, referencia o empleado
act-bad-date = «{ $text }» no es una fecha (DD-MM-AAAA).
act-count = { $count ->
    [one] 1 registro
   *[other] { $count } registros
}
act-reading = Leyendo el registro…
act-export = Exportar CSV…
act-file-name = actividad
act-dialog-title = Exportar la actividad
act-exported = { $count ->
        [one] 1 registro
       *[other] { $count } registros
    } exportados a { $path }.
act-export-failed = No se pudo escribir { $path }. Si había un archivo, quedó como estaba.
act-connect-to-check = Conéctese al servicio para revisarlas.
act-open-row = Abrir esta factura en Consultar
act-table = Registro de actividad
act-col-time = Hora
act-col-who = Quién
act-col-action = Acción
act-col-customer = Cliente
act-col-amount = Monto
act-col-what = Referencia / factura / archivo
act-col-outcome = Resultado
act-create = Emisión
act-void = Anulación
act-export-action = Exportación
act-email-action = Correo
act-done = Hecha
act-refused = Rechazada
act-unknown = Por revisar
act-checked = (revisada)
act-rows = { $count ->
        [one] 1 fila
       *[other] { $count } filas
    }
act-account-currency = { $amount } (moneda de la cuenta)
dir-pick = Poner el id de este cliente en el campo
dir-import = Importar directorio de clientes…
dir-dialog-title = Directorio de clientes (CSV o Excel)
dir-filter = CSV o Excel
dir-imported = { $count ->
    [one] 1 cliente importado al directorio.
   *[other] { $count } clientes importados al directorio.
}
dir-problem-cell = Fila { $row }, columna { $column }: { $what }
dir-no-id-column = El archivo no tiene columna de id (su encabezado debe nombrar una de: id, cliente, customer). No se importó nada.
dir-no-id = el id está vacío
dir-bad-rut = «{ $rut }» no es un RUT
dir-check-digit = el dígito verificador de { $rut } debería ser { $digit }
dir-duplicate = { $id } ya está en una fila anterior

## Emisión masiva
tab-bulk = Emisión masiva
bulk-title = Emisión masiva: las facturas del mes desde una planilla
bulk-file = Archivo
bulk-file-hint = un archivo .csv o .xlsx
bulk-choose = Elegir…
bulk-chose-nothing = No se eligió un archivo. Si no se abrió ninguna ventana para elegirlo, escriba la ruta del archivo en «Archivo» y presione «Leer y revisar».
bulk-read = Leer y revisar
bulk-reading = Leyendo y revisando el archivo…
bulk-dialog-title = Elegir la planilla de facturación
bulk-filter = Planillas (CSV, Excel)
bulk-unreadable = No se puede leer { $path }. ¿Existe, y es un archivo CSV o Excel (.xlsx)?
bulk-empty-file = { $path } no tiene filas.
bulk-columns = Columnas del archivo
bulk-col-unrecognised = no reconocida: elija un campo, o «No se usa»
bulk-use-none = No se usa
bulk-field-customer = Cliente (id, nombre o RUT)
bulk-field-amount = Monto
bulk-field-currency = Moneda
bulk-field-due = Vencimiento
bulk-field-product = Producto
bulk-field-reference = Referencia
bulk-field-account = Llave de cuenta
bulk-field-metadata = Campo adicional
bulk-and = y
bulk-in-account-currency = { $amount } en la moneda de la cuenta
bulk-summary = { $count ->
    [one] 1 factura
   *[other] { $count } facturas
} a { $customers ->
    [one] 1 cliente
   *[other] { $customers } clientes
}: { $totals }
bulk-nothing-valid = Ninguna fila se puede emitir.
bulk-problem-rows = { $count ->
    [one] 1 fila tiene problemas
   *[other] { $count } filas tienen problemas
}
bulk-only-problems = Solo filas con problemas
bulk-skip-invalid = Emitir las filas válidas y omitir las que tienen problemas
bulk-fix-first = Corrija en el archivo las filas con problemas y vuelva a leerlo, o elija omitirlas.
bulk-skipping = Las filas con problemas se omiten; las válidas se emiten.
bulk-concurrency = Solicitudes simultáneas
bulk-issue = { $count ->
    [one] Emitir 1 factura…
   *[other] Emitir { $count } facturas…
}
bulk-confirm-title = Confirmar la emisión masiva
bulk-confirm = { $count ->
    [one] ¿Emitir 1 factura
   *[other] ¿Emitir { $count } facturas
}: { $totals } a { $customers ->
    [one] 1 cliente
   *[other] { $customers } clientes
}?
bulk-confirm-note = Cada factura queda anotada en el registro antes de enviarse. Volver a ejecutar el mismo archivo nunca emite una fila dos veces.
bulk-confirm-skipped = { $count ->
    [one] 1 fila con problemas no se emite.
   *[other] { $count } filas con problemas no se emiten.
}
bulk-confirm-yes = Emitirlas
bulk-progress = { $done } de { $total ->
        [one] 1 fila
       *[other] { $total } filas
    } · { $rate } por segundo · faltan unos { $left }
bulk-checking = Leyendo lo que el servicio ya tiene de { $of ->
    [one] 1 cliente
   *[other] { $of } clientes
} ({ $read } de { $of })…
bulk-waiting-in-flight = Esperando { $secs } s como máximo: { $rows ->
    [one] 1 fila
   *[other] { $rows } filas
} de una emisión interrumpida podrían estar aún en camino al servicio; ninguna se envía dos veces.
bulk-waiting-for = Esperando a { $who }: { $count ->
    [one] su computador no responde
   *[other] sus computadores no responden
}. { $rows ->
    [one] 1 fila
   *[other] { $rows } filas
} de su emisión podrían estar aún en camino al servicio; se espera hasta { $secs } s y ninguna se envía dos veces.
bulk-progress-start = { $done } de { $total ->
        [one] 1 fila
       *[other] { $total } filas
    }
bulk-pause = Pausar
bulk-resume = Reanudar
bulk-cancel = Detener el envío
bulk-paused = En pausa: las solicitudes ya en camino terminan; no se envía nada más hasta reanudar.
bulk-cancelling = Deteniendo: las solicitudes en camino terminan y quedan anotadas; no se envía nada más.
bulk-finished = Terminado: { $created } emitidas, { $existing } ya emitidas antes, { $refused } rechazadas, { $unknown } por revisar, { $similar } posibles duplicados, { $notsent } no enviadas.
bulk-finished-again = Filas no enviadas o por revisar: vuelva a leer y emitir el mismo archivo; nada ya emitido se envía dos veces.
bulk-save-csv = Guardar resultados (CSV)
bulk-save-xlsx = Guardar resultados (Excel)
bulk-saved = Resultados guardados en { $path }
bulk-save-failed = No se pudieron guardar los resultados en { $path }.
bulk-results-suffix = resultados
bulk-sheet-name = Resultados
bulk-table = Filas del archivo
bulk-col-row = Fila
bulk-col-status = Estado
bulk-col-reference = Referencia
bulk-col-invoice = Factura
bulk-col-problem = Problema
bulk-col-customer = Cliente
bulk-col-name = Nombre
bulk-col-amount = Monto
bulk-col-currency = Moneda
bulk-st-ready = Lista
bulk-st-waiting = En espera
bulk-st-created = Emitida
bulk-st-existing-by = Emitida por { $who }
bulk-unsure-elsewhere = { $who } la tiene en camino; no se vuelve a enviar.
bulk-st-existing = Ya emitida
bulk-confirmed-by = La respuesta no llegó a este computador (estuvo detenido o suspendido); { $who } la encontró emitida en el servicio.
bulk-st-refused = Rechazada
bulk-st-unknown = Por revisar
bulk-st-not-sent = No enviada
bulk-st-invalid = No emitida (con problemas)
bulk-unsure-sent = Ninguna respuesta dijo si se emitió. Vuelva a leer y emitir el mismo archivo más tarde (primero revisa), o use Revisar ahora en Actividad.
bulk-unsure-earlier = Una emisión anterior la dejó sin respuesta y ahora no se pudo consultar al servicio: no se envía de nuevo.
bulk-journal-unreadable = No se pudo leer el registro, así que no se envió.
bulk-rate-limited = El servicio siguió diciendo que había demasiadas solicitudes.
bulk-resume-offer = Una emisión masiva de { $file } con el perfil { $profile } (iniciada el { $when }) quedó interrumpida.
bulk-profile-environment = (variables de entorno)
bulk-resume-open = Abrirla para reanudar
bulk-resume-dismiss = Descartar
bulk-resume-hint = Las filas ya emitidas se omiten; las que quedaron sin respuesta se revisan primero.
bulk-file-changed = El archivo cambió desde la emisión interrumpida: las filas sin referencia reciben referencias nuevas y podrían emitirse dos veces. Revise Actividad antes de emitir.
bulk-why-unknown-columns = Columnas no reconocidas: { $columns }. Elija un campo para ellas, o «No se usa».
bulk-why-no-customer-column = Ninguna columna es el cliente (cliente o customer).
bulk-why-no-amount-column = Ninguna columna es el monto (monto o amount).
bulk-why-twice = Dos columnas son «{ $field }».
bulk-why-customer-empty = Falta el cliente.
bulk-why-customer-not-found = No hay un cliente «{ $text }» en el directorio de clientes.
bulk-why-directory-empty = No hay un cliente «{ $text }»: el directorio de clientes de este registro aún no tiene nombres (un registro recién elegido parte vacío). Vuelva a importar el directorio, o traiga el de este computador con `invoice-desk journal push`.
bulk-why-customer-ambiguous = «{ $text }» coincide con { $count ->
        [one] 1 cliente
       *[other] { $count } clientes
    } del directorio: escriba el id.
bulk-why-directory = No se puede leer el directorio de clientes.
bulk-why-amount-empty = Falta el monto.
bulk-why-currency = «{ $text }» no es una de las monedas de este perfil ({ $offered }).
bulk-why-duplicate = La referencia { $reference } ya está en la fila { $row }.
bulk-problem-cell = { $column }: { $what }
bulk-st-with-id = { $status } · { $id }
bulk-st-with-why = { $status }: { $why }

# Estado de cuenta: vencidas, antigüedad, gráfico, filtros, libro Excel (#17)
status-overdue = Vencida
overdue-days = Vencida · { $days ->
    [one] 1 día
   *[other] { $days } días
}
overdue-hint = No pagada y pasada su fecha de vencimiento.
aging-current = Al día
aging-1-30 = 1–30 días
aging-31-60 = 31–60 días
aging-61-90 = 61–90 días
aging-over-90 = Más de 90 días
chart-invoiced = Facturado
chart-paid = Pagado
chart-open = Por cobrar
cu-statement = Estado de cuenta (lo que se muestra)
cu-aging-title = Por cobrar, según días de atraso
cu-aging-hint = Mostrar solo estas facturas
cu-aging-none = No hay nada por cobrar en las facturas mostradas.
cu-aging-count = { $count ->
    [one] 1 factura
   *[other] { $count } facturas
}
cu-chart-title = Por mes de vencimiento, últimos 24 meses
cu-chart-currency = Moneda del gráfico
cu-chart-none = Ninguna factura vence en los últimos 24 meses.
cu-status-filter = Estado
cu-status-any = Cualquier estado
cu-due-from = Vence desde
cu-due-to = Vence hasta
cu-amount-from = Monto desde
cu-amount-to = Monto hasta
cu-clear-filters = Quitar filtros
cu-bad-date = «{ $text }» no es una fecha; escríbala como { $example }.
cu-bad-amount = «{ $text }» no es un monto.
cu-bucket-only = Solo { $bucket } ({ $currency })
cu-bucket-clear = Mostrar todas
cu-format = Formato
format-xlsx = Libro Excel (.xlsx)
cu-export-xlsx = Exportar Excel… ({ $count ->
    [one] 1 factura
   *[other] { $count } facturas
})
cu-save-file = Guardar archivo
cu-dialog-title-xlsx = Exportar facturas a Excel
cu-file-name-xlsx = facturas-{ $customer }.xlsx
cu-as-text = { $count ->
    [one] 1 monto tiene más de 15 cifras: Excel no puede guardarlo como número, así que va como texto (marcado en amarillo).
   *[other] { $count } montos tienen más de 15 cifras: Excel no puede guardarlos como números, así que van como texto (marcados en amarillo).
}
xl-sheet-invoices = Facturas
xl-sheet-summary = Resumen
xl-days-overdue = Días de atraso
xl-customer-name = Nombre del cliente
xl-too-large = Demasiado grande para sumar
xl-customer = Cliente
xl-as-of = Al
xl-as-text-note = { $count ->
    [one] 1 monto va como texto: Excel no puede guardarlo exacto (más de 15 cifras). Está marcado en amarillo.
   *[other] { $count } montos van como texto: Excel no puede guardarlos exactos (más de 15 cifras). Están marcados en amarillo.
}
xl-aging = Por cobrar, según días de atraso
xl-bucket = Días de atraso
xl-count = Facturas
xl-total = Total
xl-nothing-owed = No hay nada por cobrar.
xl-monthly = Totales por mes de vencimiento
xl-month = Mes
lk-copy-link = Copiar enlace de pago
lk-open-link = Abrir enlace de pago
lk-link-copied = Se copió el enlace de pago.
lk-link-not-https = Este enlace de pago no es una dirección segura (https), así que no se ofrece.
xl-cut-note = { $count ->
    [one] 1 texto es más largo de lo que cabe en una celda de Excel (32.767 caracteres): va cortado, termina en «…» y está marcado en amarillo. La exportación CSV lo conserva entero.
   *[other] { $count } textos son más largos de lo que cabe en una celda de Excel (32.767 caracteres): van cortados, terminan en «…» y están marcados en amarillo. La exportación CSV los conserva enteros.
}

# Nunca dos veces: referencias reclamadas, parecidas, esperas (#31)
bulk-st-existing-service = Ya emitida (en el servicio)
bulk-st-similar = Posible duplicado
bulk-unsure-waiting = Una solicitud anterior para esta fila puede seguir en curso en el servicio: no se envía de nuevo y se confirma después de las { $time }. Vuelva a emitir el archivo entonces.
bulk-unchecked = No se pudo consultar al servicio si ya estaba emitida: { $why }
bulk-issued-elsewhere = No se envió: otro computador está emitiendo este mismo archivo ahora (la factura { $invoice }, referencia { $reference }, no se emitió desde aquí). Un equipo que factura desde varios computadores necesita el registro compartido.
looks-like = Parece repetida: { $id } emitida el { $date } ({ $alike }).
looks-like-service = Parece repetida: { $id } emitida el { $date }, encontrada en el servicio ({ $alike }).
bulk-allow-similar = Emitir de todos modos
bulk-finished-similar = { $count ->
    [one] 1 fila parece repetida y no se envió
   *[other] { $count } filas parecen repetidas y no se enviaron
}: marque «Emitir de todos modos» en las que sí correspondan y vuelva a emitir.
bulk-finished-found = { $count ->
    [one] 1 ya estaba emitida en el servicio
   *[other] { $count } ya estaban emitidas en el servicio
} (no en este registro): no se enviaron de nuevo.
bulk-finished-waiting = { $count ->
    [one] 1 fila espera confirmación
   *[other] { $count } filas esperan confirmación
} hasta las { $time }.
bulk-already-known = { $count ->
    [one] 1 fila ya está emitida según el registro: no se vuelve a enviar.
   *[other] { $count } filas ya están emitidas según el registro: no se vuelven a enviar.
}
journal-checked-waiting = { $count ->
    [one] 1 espera
   *[other] { $count } esperan
} hasta las { $time }: su solicitud puede seguir en curso en el servicio, y antes no se puede concluir que no se hizo.
journal-checked-unreachable = { $count ->
    [one] 1 no se pudo consultar
   *[other] { $count } no se pudieron consultar
}: el servicio no respondió.
journal-checked-nothing = No hay nada por revisar en este servicio.
who-unknown = otro proceso
who-on = { $user } en { $host }
who-role = rol { $role } · { $said }
who-copied = { $who } (copiado; registrado el { $when } según su computador)
cr-already-issued = Ya emitida por { $who } el { $when } ({ $id }). Esta referencia ya se usó; no se envió nada.
cr-issued-missing = El registro dice que la referencia { $reference } se emitió como la factura { $id } (lo anotó { $who } el { $when }), pero el servicio no tiene esa factura ni ninguna con esa referencia.
cr-reissue-missing = Nunca se emitió: emitirla ahora (su decisión queda en el registro)
cr-new-invoice = Nueva factura
cr-in-progress = La está emitiendo { $who } ahora, o su resultado aún no se conoce (desde el { $when }). No se envió nada: verifique si se creó.
cr-similar-title = ¿Factura repetida?
cr-similar-question = ¿Emitir de todos modos?
cr-similar-by = La emitió { $who }.
cr-similar-by-now = La emitió { $who }; hoy en el servicio está { $status }.
cr-issue-anyway = Emitir de todos modos
cr-check-waiting = Aún no aparece en el servicio, pero la solicitud puede seguir en curso allí: vuelva a verificar después de las { $time }. No la envíe de nuevo antes.
cr-restored-unknown = Esta factura se envió antes y no llegó respuesta: verifique si se creó antes de enviarla de nuevo.
lk-already-voided = Ya anulada: { $id } el { $when }. No se envió nada.
lk-void-in-progress = Se está anulando ahora (otro proceso), o su resultado aún no se conoce (desde el { $when }). No se envió nada: revise la factura.
lk-void-waiting = Aún no aparece anulada, pero la solicitud puede seguir en curso: vuelva a revisar después de las { $time }.
quit-title = ¿Cerrar invoice-desk?
quit-bulk = Una emisión masiva está enviando facturas. Si cierra ahora, las solicitudes en camino quedan por revisar y el resto no se envía (se ofrece reanudarla al volver a abrir).
quit-create = Se envió una factura o anulación y aún no llega la respuesta. Si cierra ahora, su resultado quedará por revisar.
quit-stay = Seguir en la aplicación
quit-anyway = Cerrar de todos modos

# Archivos del mundo real: límites al leer (#32)
dir-unreadable-why = No se importó nada: { $why }
sheet-unreadable = No se puede leer el archivo. ¿Existe, y tiene permiso para leerlo?
sheet-not-a-file = No es un archivo (es una carpeta, una tubería o un dispositivo).
sheet-too-large = Pesa más de { $mb } MB, lo máximo que puede pesar una planilla.
sheet-too-many-rows = Tiene más de { $limit ->
        [one] 1 fila
       *[other] { $limit } filas
    }, lo máximo que puede tener un archivo.
sheet-too-many-columns = La fila { $row } tiene más de { $limit } columnas, lo máximo que puede tener un archivo.
sheet-too-many-cells = Tiene más de { $limit } celdas, lo máximo que puede tener un archivo.
sheet-cell-too-long = Fila { $row }, columna { $column }: una celda tiene más de { $limit } caracteres, lo máximo que cabe en una celda.
sheet-text-too-long = Un texto del libro tiene más de { $limit } caracteres, lo máximo que cabe en una celda.
sheet-unclosed-quote = Fila { $row }: una comilla (") abierta ahí nunca se cierra.
sheet-uncompressed = Descomprimido, el libro pesa más de { $mb } MB, lo máximo que se acepta (puede ser una bomba zip).
sheet-too-many-parts = El libro tiene más de { $limit } partes.
sheet-not-a-workbook = No es un libro de Excel .xlsx, o está dañado (un .xls antiguo o un libro con contraseña no se pueden leer: guárdelo como .xlsx sin contraseña).
sheet-no-such-sheet = El libro no tiene una hoja llamada «{ $name }».
sheet-no-sheet = El libro no tiene hojas.
sheet-of-csv = Solo un libro de Excel (.xlsx) tiene hojas.
bulk-unreadable-why = No se puede leer { $path }: { $why }
dest-special = { $path } no es un archivo común (es una tubería, un dispositivo o un socket): no se reemplaza. Elija un nombre de archivo.
in-too-long = { $what }: más de { $max } caracteres, lo máximo que se envía.
in-extra-too-large = Los campos adicionales y la metadata juntos pesan más de { $kb } KB, lo máximo que se envía.
bulk-wait-too-long = El servicio pidió esperar { $minutes } minutos (demasiadas solicitudes), más de lo que espera una emisión: vuelva a emitir el archivo más tarde.
bulk-rate-waiting = El servicio pidió esperar; se reanuda a las { $time }.
bulk-slowed = El servicio está respondiendo lento: { $now ->
    [one] se envía una factura
   *[other] se envían { $now } facturas
} a la vez hasta que vuelva a responder rápido.
bulk-unsure-not-recorded = El servicio respondió, pero el registro no pudo anotarlo: queda por revisar (Revisar ahora, en Actividad).
looks-like-due = mismo cliente, monto, moneda y vencimiento
looks-like-same-day = mismo cliente, monto y moneda, sin vencimiento, emitida el mismo día
# El segundo día de un cajero (#33)
cur-clf = UF (CLF)
cur-short-clf = UF
cur-clp = Pesos (CLP)
cust-looking = Buscando en el directorio de clientes…
cust-not-found = No hay un cliente «{ $text }» en el directorio de clientes: escriba su id (cus_…) o su RUT.
cust-unread = No se pudo buscar en el directorio de clientes: { $why } Escriba el id del cliente (cus_…), o su nombre otra vez cuando el registro responda.
cust-did-you-mean = ¿Quiso decir { $names }? Elija uno de la lista.
bulk-forget-title = ¿Descartar la emisión interrumpida?
bulk-forget-body = La emisión de { $file } no se ofrecerá más para reanudar. Las filas no enviadas no se emiten a menos que vuelva a emitir el archivo (lo ya emitido nunca se repite).
bulk-forget-keep = Mantenerla
bulk-forget-yes = Sí, descartarla
lk-link-not-opened = No se pudo abrir el navegador. El enlace se copió: péguelo en su navegador. { $url }
cu-folder-not-opened = No se pudo abrir la carpeta. El archivo está en { $path }
dir-no-file = No se eligió ningún archivo. Si no apareció la ventana para elegirlo, escriba su ruta aquí:
dir-import-path = Archivo del directorio
dir-import-path-hint = /ruta/clientes.xlsx o .csv
dir-import-from = Importar
field-created-at = Creada
code-tk20400 = el cliente no existe
code-tk20100 = la cuenta no existe
code-tk20600 = la factura no existe
code-tk10601 = ya estaba anulada
code-tk10602 = está pagada
code-tk30000 = datos no válidos
date-past = · ya pasó (hace { $days ->
    [one] 1 día
   *[other] { $days } días
}): ¿es correcta?
date-far = · es en más de dos años: ¿es correcta?

## The journal setting (Credentials panel)
sj-title = Registro compartido
sj-now-local = Este computador registra cada emisión y anulación en su propio registro: { $place }
sj-now-shared = Este computador registra cada emisión y anulación en el registro compartido del equipo: { $place }
sj-in-memory = (solo en memoria)
sj-fixed = En este computador el registro lo elige INVOICE_DESK_JOURNAL; quite esa variable para elegirlo aquí.
sj-explain = Un equipo de varios administrativos comparte un registro en un servidor PostgreSQL, así nadie emite lo que un colega ya emitió. Deje la dirección vacía para usar el registro de este computador.
sj-address = Dirección del registro compartido
sj-password = Contraseña de la base de datos
sj-password-hint = se guarda en el llavero del sistema; vacía conserva la guardada
sj-clerk = Su nombre en el registro
sj-clerk-hint = opcional, p. ej. Ana Pérez
sj-test = Probar
sj-testing = Abriendo el registro…
sj-wait-in-flight = Hay algo enviándose: cambie de registro cuando termine.
sj-nothing-changed = No hay cambios.
sj-works = Funciona: el registro compartido responde y tiene { $entries } entradas.
sj-saved-shared = Guardado: desde ahora cada emisión y anulación se registra en el registro compartido del equipo ({ $entries } entradas).
sj-saved-local = Guardado: desde ahora se usa el registro propio de este computador.
sj-password-session-only = La contraseña no se pudo guardar en el llavero: se conserva solo hasta cerrar la aplicación.
sj-not-an-address = Escriba una dirección que empiece por postgres:// o postgresql://, o déjela vacía para usar el registro de este computador.
sj-password-in-address = La dirección no debe llevar la contraseña: escríbala en el campo de contraseña, que la guarda en el llavero.
sj-push-hint = Lo que este computador registró antes queda en su propio archivo; al usar el registro compartido se ofrecerá llevarlo allá.
sj-push-offer = { $entries ->
    [one] Este computador tiene 1 registro de antes (una emisión, anulación, exportación o correo) que el registro compartido aún no tiene. Al llevarlo, el equipo lo ve con quién lo hizo y cuándo, y nadie vuelve a emitir lo que reservó.
   *[other] Este computador tiene { $entries } registros de antes (emisiones, anulaciones, exportaciones o correos) que el registro compartido aún no tiene. Al llevarlos, el equipo los ve con quién los hizo y cuándo, y nadie vuelve a emitir lo que reservaron.
}
sj-push = Llevar al registro compartido
sj-pushed = { $copied ->
    [one] Se llevó 1 registro al registro compartido
   *[other] Se llevaron { $copied } registros al registro compartido
}{ $already ->
    [0] .
    [one] ; 1 ya estaba allá.
   *[other] ; { $already } ya estaban allá.
}
sj-bring-directory-hint = El registro compartido tiene el directorio de clientes del equipo, no el de este computador: los nombres, RUT y notas que importó aquí se quedan atrás si no los trae.
sj-bring-directory = Traer el directorio de este computador
sj-brought = { $count ->
    [one] Se trajo 1 cliente al directorio del equipo (los que ya conocía por nombre, RUT o notas quedaron como el equipo los escribió).
   *[other] Se trajeron { $count } clientes al directorio del equipo (los que ya conocía por nombre, RUT o notas quedaron como el equipo los escribió).
}
act-clerk = Usuario
bulk-progress-others = { $count } emitidas por colegas
bulk-already-known-others = { $count } de ellas las emitieron colegas.
sj-save = Usar este registro

## The sender's details (statements of account)
sender-title = Datos del emisor (estados de cuenta)
sender-f-organization = Razón social
sender-f-rut = RUT
sender-f-address = Dirección
sender-f-email = Correo
sender-f-phone = Teléfono
sender-f-logo = Logo (PNG o JPEG)
sender-f-logo-hint = un archivo de este computador, de hasta 1 MB
sender-f-payment = Cómo pagar
sender-f-payment-hint = banco, tipo y número de cuenta, a nombre de quién
sender-bad-rut = El RUT del emisor { $rut } no es válido (revise el dígito después del guion).
sender-bad-email = El correo del emisor { $email } no es válido.
sender-too-long = { $what } del emisor tiene más de { $max } caracteres.
sender-logo-unreadable = El logo { $path } no se puede usar: debe ser una imagen PNG o JPEG legible.
sender-logo-too-large = El logo { $path } es demasiado grande: hasta { $max } KB.
sender-logo-too-many-pixels = El logo { $path } mide { $width } × { $height } píxeles: hasta { $max } por lado. Guárdelo más pequeño y elíjalo de nuevo.

## Statements of account (PDF)
st-file-stem = estado-de-cuenta
st-title = Estado de cuenta
st-as-of = Al { $date }
st-customer-id = Cliente { $id }
st-nothing-owed = No hay nada pendiente de pago al { $date }.
st-page = Página { $page } de { $pages }
st-aging-title = Adeudado, según días de atraso
st-currency = Moneda
st-total-owed = Total adeudado
st-too-large = demasiado grande para sumar
st-too-many = El cliente tiene más de { $limit ->
        [one] 1 factura
       *[other] { $limit } facturas
    } por listar: es más de lo que un estado de cuenta lleva. Exporte sus facturas (Exportar) en vez de hacer el estado de cuenta.
st-render-failed = No se pudo hacer el PDF: { $why }
st-cut-note = Este estado de cuenta incluye { $total ->
        [one] 1 factura
       *[other] { $total } facturas
    }: aquí están las { $shown } de vencimiento más antiguo. Todas están en el libro Excel que lo acompaña (mismo nombre, terminado en .xlsx).
st-col-invoice = Factura
st-col-reference = Referencia
st-col-due = Vence
st-col-days = Días de atraso
st-col-status = Estado
st-col-amount = Monto
st-col-pay = Pagar
st-overdue = Vencida
st-current = Al día
st-pay-alt = Pagar la factura { $id }
st-pay-online = Pagar en línea
st-not-tax-document = Este documento no es un documento tributario (DTE): la factura electrónica se emite en el SII.
st-issued-on = Emitida el { $date }
st-watermark-void = ANULADA
st-watermark-paid = PAGADA
st-notice-void = Esta factura está anulada: no se debe pagar.
st-notice-paid = Esta factura está pagada: no hay nada pendiente.
st-how-to-pay = Cómo pagar
st-summary-stem = resumen
st-sum-customer = Cliente
st-sum-name = Nombre
st-sum-file = Archivo
st-sum-currency = Moneda
st-sum-owed = Adeudado
st-sum-oldest = Días de atraso (máx.)
st-sum-problem = Problema
st-sum-workbook = Libro con el detalle
cu-statement-pdf = Estado de cuenta (PDF)
cu-statement-pdf-hint = Cada factura pendiente, con su enlace de pago y código QR, con los datos del emisor del perfil; se abre en el visor del sistema, desde donde se imprime, guarda o envía.
cu-statement-needs-list = Primero cargue todas las facturas de un cliente: el estado de cuenta dice lo que adeuda, y no se hace de una lista incompleta.
cu-statement-making = Haciendo el estado de cuenta…
cu-statement-opened = Estado de cuenta abierto en el visor del sistema (imprímalo desde ahí). El archivo: { $path }
cu-statement-workbook = Tiene más facturas de las que caben impresas: todas están en el libro { $path }, junto al PDF.
cu-statement-not-opened = El estado de cuenta está hecho, pero ningún visor pudo abrirlo. El archivo está aquí: { $path }
cu-statement-failed = No se pudo hacer el estado de cuenta: { $why }
journal-denied = El servidor del registro compartido no aceptó el usuario o la contraseña: revíselos (la contraseña es la de la base de datos, que entrega TI).
journal-no-database = El servidor del registro compartido no tiene una base de datos con ese nombre: revise la última parte de la dirección.
journal-rewound = El registro compartido está ahora en un servidor que puede no tener sus últimas anotaciones (su servidor pasó a uno de respaldo que aún no las tenía), así que no se envía nada más según él. Vuelva a ejecutar el mismo archivo: primero se consulta al servicio y nada de lo que ya tiene se envía dos veces.
cu-statement-no-sender = Aún sin datos del emisor: el estado de cuenta no dirá de quién es (en Credenciales, en Datos del emisor).

## The Cartera (receivables) panel
tab-receivables = Cartera
rv-title = Cartera: lo que adeuda cada cliente
rv-explain = Cada cliente del directorio de clientes (importado, o visto en el registro), consultados de a pocos. Haga clic en un cliente para ver sus facturas.
rv-review = Revisar cartera
rv-stop = Detener
rv-progress = { $done } de { $total ->
        [one] 1 cliente
       *[other] { $total } clientes
    }…
rv-stopped = Detenido tras { $done } de { $total ->
        [one] 1 cliente
       *[other] { $total } clientes
    }: los que se muestran fueron consultados.
rv-no-customers = El directorio de clientes está vacío: impórtelo en Facturas del cliente (Importar directorio de clientes…), o emita facturas primero.
rv-done = { $count ->
        [one] 1 cliente
       *[other] { $count } clientes
    } revisados.
rv-show = Mostrar
rv-show-all = Todos los clientes
rv-show-overdue = Solo con facturas vencidas
rv-show-60 = Vencidas hace más de 60 días
rv-show-90 = Vencidas hace más de 90 días
rv-order = Orden
rv-order-oldest = La vencida más antigua primero
rv-order-clp = Más adeudado en pesos primero
rv-order-clf = Más adeudado en UF primero
rv-order-name = Por nombre
rv-total = Total { $currency }: { $owed } adeudado, { $overdue } de ello vencido
rv-failed = { $count ->
        [one] 1 cliente no se pudo consultar: no se sabe cuánto adeuda
       *[other] { $count } clientes no se pudieron consultar: no se sabe cuánto adeudan
    } (en rojo).
rv-col-customer = Cliente
rv-col-rut = RUT
rv-col-clp = Adeudado (CLP)
rv-col-clf = Adeudado (UF)
rv-col-oldest = Vencida más antigua
rv-col-last = Última factura
rv-not-listed = No se pudo consultar: { $why }
rv-days = { $days ->
        [one] 1 día
       *[other] { $days } días
    }
rv-none-overdue = ninguna vencida
rv-table = Cartera por cliente
rv-open-row = Ver las facturas de este cliente
rv-too-large = demasiado grande para sumar
lk-print = Imprimir…
lk-print-hint = La factura en PDF (con el emisor del perfil, su enlace de pago y código QR), abierta en el visor del sistema, desde donde se imprime.
lk-print-opened = La factura está abierta en el visor del sistema: imprímala desde ahí. El archivo: { $path }
lk-print-not-opened = El PDF de la factura está hecho, pero ningún visor pudo abrirlo. El archivo está aquí: { $path }
lk-print-failed = No se pudo imprimir la factura: { $why }
st-invoice-title = Factura { $id }
st-invoice-stem = factura
rv-folder = Carpeta de los estados de cuenta
rv-statements = Estados de cuenta de estos ({ $count })
rv-statements-hint = Un PDF por cada cliente mostrado que adeuda algo, en esta carpeta (se crea si falta), nunca sobre un archivo existente; un resumen CSV de todos. Queda en el registro.
rv-book = Libro Excel de estos…
rv-book-hint = Los clientes que se muestran, en este orden, con lo que adeuda cada uno por moneda, y cada factura que adeudan en una segunda hoja: en la carpeta de arriba, nunca sobre un archivo.
rv-book-stem = cartera
rv-book-written = Libro escrito: { $path }
rv-making = Estados de cuenta: { $done } de { $total }…
rv-made = { $pdfs ->
        [one] 1 estado de cuenta guardado
       *[other] { $pdfs } estados de cuenta guardados
    }; { $nothing ->
        [one] 1 cliente no adeuda nada
       *[other] { $nothing } clientes no adeudan nada
    }. Resumen: { $summary }
rv-made-failed = { $count } no se pudieron hacer (el resumen dice por qué).
rv-made-stopped = Detenido: los demás no se hicieron.
rv-folder-failed = La carpeta { $path } no se puede usar: { $why }
xl-sheet-receivables = Cartera
xl-sheet-owed = Facturas adeudadas
xl-col-name = Nombre
xl-col-currency = Moneda
xl-col-owed = Adeudado
xl-col-problem = Problema
xl-col-days-overdue = Días de atraso
rv-col-buckets = Adeudado por días de atraso

## Correo (ajustes, contactos, plantillas)
dir-bad-email = "{ $email }" no es una dirección de correo
dir-name-not-one-line = el nombre "{ $name }" no es una sola línea de texto (un salto de línea o un carácter de control): escríbalo en una línea.
dir-name-too-long = el nombre tiene { $count } caracteres; se admiten hasta { $max }.
mail-no-server = No hay servidor de correo: indíquelo con `invoice-desk profile mail --server …`.
mail-bad-server = "{ $server }" no es el nombre de un servidor.
mail-f-from = Remitente
mail-f-reply-to = Responder a
mail-f-copy-to = Copia para la mesa
mail-bad-address = { $field }: "{ $address }" no es una dirección de correo.
mail-plain-not-local = Sin cifrado, el correo solo puede ir a un servidor de este computador, no a { $server }: elija starttls o tls.
mail-bad-rate = { $rate ->
        [one] 1 correo
       *[other] { $rate } correos
    } por minuto no sirve: de 1 a { $max }, o «servidor» (tan rápido como el servidor los reciba).
mail-ca-unreadable = La autoridad de certificación { $path } no se puede usar: { $why }
mail-template-unreadable = La plantilla de correo { $path } no se puede leer: { $why }
mail-template-no-subject = La plantilla de correo { $path } debe empezar con una línea "Asunto: …" y luego una línea en blanco.
mail-template-placeholder = La plantilla de correo { $path } nombra {"{"}{ $name }{"}"}, que no es un campo (un error de tipeo llegaría al cliente).

## Consulta: enviar la factura por correo
mail-no-sender = Un correo dice de quién viene: complete primero la razón social del emisor (Credenciales → datos del emisor).
lk-mail = Enviar por correo al cliente…
lk-mail-hint = El PDF de la factura a las direcciones del cliente en el directorio; lo ve antes de enviarlo, y se envía una sola vez.
lk-mail-making = Preparando el correo…
lk-mail-sending = Enviando el correo…
lk-mail-title = Enviar la factura por correo
lk-mail-to = Para
lk-mail-subject = Asunto
lk-mail-attachment = Adjunto
lk-mail-sent-before = Este correo ya se envió el { $when } ({ $by }).
lk-mail-unknown-before = Este correo se envió el { $when } ({ $by }) y el servidor de correo nunca respondió: puede haber llegado.
lk-mail-again = Enviarlo de nuevo de todas formas
lk-mail-send = Enviar
lk-mail-sent = Enviado a { $customer } ({ $to }).
lk-mail-sent-some-refused = Enviado a { $customer }, pero el servidor de correo rechazó: { $refused }.
lk-mail-sent-again-to = Enviado de nuevo a { $customer }, solo a { $to }, que el servidor de correo había rechazado; las demás direcciones ya lo tenían.
lk-mail-already = Ya se envió el { $when } ({ $by }); no se envió de nuevo.
lk-mail-on-its-way = { $by } está enviando este correo en este momento (su programa está conectado al registro del equipo); no se envió de nuevo.
lk-mail-unknown = El correo a { $customer } se entregó al servidor y no llegó respuesta: puede haber llegado. No se envía de nuevo salvo que usted lo pida.
lk-mail-no-address = { $customer } no tiene dirección de correo en el directorio: agréguela (customers contacts, o una columna correo en el archivo del directorio).
lk-mail-nothing-owed = { $customer } no debe nada: no hay estado de cuenta que enviar.
lk-mail-refused = El servidor de correo rechazó el correo ({ $reply }); no se envió nada.
lk-mail-later = El servidor de correo pidió intentar más tarde ({ $reply }); no se envió nada.
lk-mail-setup = El servidor de correo no se puede usar: { $why }. No se envió nada.
mail-too-large = el correo pesaría { $mb } MB, más de los { $max } MB que aceptan los servidores de correo; envíe el libro del estado de cuenta por otro medio
mail-no-tls-here = el servidor no habla TLS en el puerto { $port } (TLS implícito suele ser el 465; con STARTTLS, el 587: `profile mail --security starttls`) [{ $why }]
mail-server-words = «{ $words }»
mail-why-no-starttls = el servidor no ofrece STARTTLS (conexión segura); pruebe `--security tls` en el puerto 465, o pregunte a quien administra el correo
mail-why-no-password = la contraseña del servidor de correo no está guardada: escríbala en Credenciales, o con `invoice-desk profile mail --user USUARIO`, que la pide
mail-why-no-answer = el servidor no respondió en { $secs } s
mail-why-timeout = el servidor no respondió a tiempo
mail-why-tls = no se pudo establecer la conexión segura (TLS) con el servidor
mail-why-garbled = la respuesta del servidor llegó incompleta o no se entendió
mail-why-refused-connection = el servidor rechazó la conexión (¿dirección o puerto equivocados, o el servidor detenido?)
mail-why-cut = se cortó la conexión con el servidor
mail-why-connection = no se pudo conectar con el servidor
mail-why-not-handed-over = el contenido no se entregó
lk-mail-not-made = No se pudo preparar el correo: { $why }
lk-mail-no-password = El servidor de correo pide usuario y no hay contraseña guardada: indíquela con `invoice-desk profile mail --user …`.

## Cartera: los correos del mes
rv-mail = Enviar por correo a estos ({ $count })…
rv-mail-hint = El estado de cuenta del mes (o un recordatorio) a cada cliente mostrado que adeuda algo, con el PDF, a las direcciones del directorio; cada cliente lo recibe una sola vez.
rv-mailing = Correos: { $done } de { $total }…
rv-mail-title = Enviar los estados de cuenta del mes
rv-mail-title-reminders = Enviar los recordatorios de pago del mes
rv-mail-done-reminders = Recordatorios enviados: { $sent }; enviados antes: { $before }; sin facturas con 30 días de atraso o más: { $nothing }.
rv-mail-reminders = Un recordatorio en vez del estado de cuenta (30, 60 o 90 días de atraso)
rv-mail-what = { $count ->
        [one] El cliente mostrado, si adeuda algo, recibe
       *[other] Cada uno de los { $count } clientes mostrados que adeudan algo recibe
    } su estado de cuenta de { $month }, con el PDF adjunto, en las direcciones del directorio.
rv-mail-what-reminders = { $count ->
        [one] El cliente mostrado, si su factura impaga más antigua lleva al menos 30 días vencida, recibe
       *[other] Cada uno de los { $count } clientes mostrados cuya factura impaga más antigua lleva al menos 30 días vencida recibe
    } un recordatorio ({ $month }), con el estado de cuenta adjunto.
rv-mail-once = Cada cliente lo recibe una sola vez: se omiten los ya enviados este mes, y un correo sin respuesta del servidor no se envía de nuevo.
rv-mail-sample = Ver el correo del primer cliente
rv-mail-sample-making = Preparando el correo del primer cliente…
rv-mail-sample-title = Así lo recibirá el primer cliente con dirección de correo (cada uno con lo suyo):
rv-mail-sample-none = { $count ->
        [one] El primer cliente no recibiría un correo: no tiene dirección o no debe nada.
       *[other] Ninguno de los primeros { $count } clientes recibiría un correo: no tienen dirección o no deben nada.
    }
rv-mail-done = Enviados: { $sent }; enviados antes: { $before }; sin deuda: { $nothing }.
rv-mail-no-address = Sin dirección de correo ({ $count }): { $names }.
rv-mail-not-sent = No enviados ({ $count }): { $names }.
rv-mail-unknown = Sin respuesta del servidor, pueden haber llegado, no se envían de nuevo ({ $count }): { $names }.
mail-title = Servidor de correo (envíos a clientes)
mail-f-server = Servidor
mail-f-security = Seguridad
mail-security-starttls = STARTTLS (587)
mail-security-tls = TLS (465)
mail-security-none = Ninguna (solo este computador)
mail-f-port = Puerto
mail-f-user = Usuario
mail-f-password = Contraseña
mail-f-rate = Correos por minuto
mail-f-ca = Autoridad de certificación (PEM)
mail-f-ca-hint = solo para un servidor propio de la mesa
mail-bad-port = "{ $port }" no es un puerto: un número de 1 a 65535.
cu-mail = Enviar el estado de cuenta por correo…
cu-mail-hint = El estado de cuenta de este cliente (todas las facturas listadas) a sus direcciones del directorio; lo ve antes de enviarlo, y se envía una sola vez este mes.
cu-mail-title = Enviar el estado de cuenta por correo

## The UF's value in pesos
uf-value = UF al { $date }: { $value } ({ $source })
uf-stored-by = { $source }; guardado por { $who } el { $when }
uf-source-cmf = CMF
uf-source-file = archivo «{ $file }»
uf-breaks = El valor de la UF del { $date } que se recibió ({ $value }) no se usa: se aleja más de 0,5 % del valor del { $near } ({ $near_value }), y la UF cambia apenas centésimas de un por ciento al día. Los montos se muestran solo en UF; revise los valores con `invoice-desk uf check`.
uf-put-breaks = { $date }: { $value } no se guardó: se aleja más de 0,5 % del valor guardado del { $near } ({ $near_value }); la UF cambia apenas centésimas de un por ciento al día.
uf-put-corrected = { $date }: la CMF publica { $value }; el valor guardado ({ $was }, guardado por { $who }) la contradecía y se reemplazó. Queda anotado en el registro.
uf-put-cmf-differs = { $date }: la CMF publica { $value } y el { $source } decía { $other }; se usa el de la CMF. Queda anotado en el registro.
uf-put-differs-cmf = { $date }: este valor ({ $value }) no coincide con el que publica la CMF ({ $other }); se usa el de la CMF.
uf-put-differs = { $date }: este valor ({ $value }) no coincide con el guardado del { $source } ({ $other }); se usa el guardado primero.
uf-imported = Se guardaron { $count } valores de la UF de { $file }, del { $first } al { $last } ({ $added ->
        [one] 1 nuevo
       *[other] { $added } nuevos
    }).
uf-file-refused = No se guardó nada de { $file }: sus valores no calzan con los días que los rodean (la UF cambia apenas centésimas de un por ciento al día). Revise estos días:
uf-pesos = ≈ { $pesos } al { $date }
uf-no-key = Sin llave de la CMF, los montos en UF se muestran sin pesos. Pida una llave gratuita en api.cmfchile.cl y guárdela en Credenciales (Valor de la UF).
uf-not-published = El valor de la UF del { $date } aún no está publicado: los montos se muestran solo en UF.
uf-key-refused = La CMF rechazó la llave (HTTP { $status }): revísela en Credenciales. Los montos se muestran solo en UF.
uf-unreachable = No se pudo consultar el valor de la UF en la CMF ({ $why }): los montos se muestran solo en UF.
uf-bad-address = «{ $address }» no es una dirección https para el valor de la UF.
uf-secret-in-address = La dirección del valor de la UF no puede llevar una consulta (?apikey=…), un usuario, una contraseña ni un fragmento: escriba la dirección sola, y la llave donde la aplicación o `invoice-desk uf key` la pide (va al llavero). No se guardó nada.
uf-bad = El valor de la UF del { $date } no se pudo leer: { $why }. Los montos se muestran solo en UF.

## Search across customers
search-status-issued = Emitida aquí
search-from-service = visto en el servicio el { $when }
search-from-journal = según el diario, { $when }
search-no-customer = cliente no indicado
search-due = vence el { $date }
search-index-unusable = El índice de búsqueda de este computador no se pudo usar ({ $why }). Lo que dice el diario sigue intacto; cierre otras ventanas de invoice-desk y busque de nuevo.
search-index-not-ours = El archivo del índice de búsqueda ({ $path }) es otra base de datos, quizás el propio registro (por su nombre o un enlace a él): se deja tal cual y no se escribe nada en él. Muévalo, o dé otro nombre al registro; el registro no se tocó.
search-index-newer = El índice de búsqueda ({ $path }) lo ordenó una versión más nueva de invoice-desk: se deja tal cual. La búsqueda sigue con lo que sabe el registro; con la versión más nueva vuelve a encontrar todo.
search-hint = Buscar factura, RUT, monto… (Ctrl+F)
search-hint-long = Buscar factura, referencia, RUT, cliente o monto (Ctrl+F)
search-searching = Buscando…
search-none = Nada encontrado para «{ $text }» entre las facturas del perfil { $profile } que este computador y el escritorio conocen.
search-found = { $invoices ->
        [one] 1 factura
       *[other] { $invoices } facturas
    }{ $customers ->
        [0] {""}
        [one] {" y 1 cliente"}
       *[other] {" y "}{ $customers }{" clientes"}
    }
search-scrolls = Hay más abajo: baje con las flechas o la rueda del mouse.
search-more = Hay más resultados: escriba algo más preciso.
search-ask-service = Consultar «{ $text }» en el servicio
search-customer = Cliente: { $name }
search-help = Flechas arriba y abajo para elegir, Enter para abrir, Esc para cerrar.
uf-book-pesos = En pesos, con la UF del { $date } ({ $value }): { $owed } adeudado, { $overdue } vencido ({ $buckets }).
uf-book-others = Otras monedas no se suman.
uf-why-row = fila { $row }: { $why }
uf-why-not-a-value = «{ $text }» no es un valor de la UF (como 39.643,59)
uf-why-not-a-date = «{ $text }» no es una fecha
uf-why-not-a-day = «{ $text }» no es un día del mes
uf-why-no-such-day = el { $day } de { $month } de { $year } no existe
uf-why-too-large = pesa más de { $kb } KB
uf-why-too-many = trae más de { $count } valores
uf-why-two-values = trae dos valores para el { $date }: { $a } y { $b }
uf-why-not-cmf-json = no es una respuesta de la CMF ({"{"}"UFs": [{"{"}"Valor": …, "Fecha": …{"}"}]{"}"})
uf-why-no-columns = no tiene columnas Fecha y Valor, ni Día y los meses como la tabla del SII
uf-why-no-year = la tabla del SII no dice de qué año es: póngalo en el nombre del archivo (uf2026.xlsx) o con --year
uf-why-no-values = no trae ningún valor
uf-why-status = la CMF respondió con el estado HTTP { $status }
uf-why-no-file = el archivo no existe
uf-why-denied = no hay permiso para leer el archivo
uf-why-unreadable = el archivo no se pudo leer
uf-why-no-path = la dirección del servicio de prueba no admite una ruta
ufs-title = Valor de la UF
ufs-reading = Leyendo el valor de hoy…
ufs-explain = Los montos en UF se muestran también en pesos con el valor del día que publica el Banco Central en la API de la CMF. La llave es gratuita: pídala en api.cmfchile.cl («Solicitar API key»); llega por correo. Se guarda en el llavero del sistema.
ufs-address = Dirección de la API
ufs-key = Llave de la CMF
ufs-key-hint = pegue aquí la llave (se guarda en el llavero)
ufs-save = Guardar y leer el valor
ufs-saved = Llave guardada en { $store }.
ufs-file-explain = Si no tiene llave, o para días que la CMF no tiene, guarde un archivo de valores (la tabla del Banco Central o del SII en Excel o CSV, o una respuesta de la CMF guardada). Se guarda entero o nada: un día que no calza con los que lo rodean lo rechaza.
ufs-file = Archivo de valores
ufs-file-hint = ruta del archivo (.xlsx, .csv, .json)
ufs-import = Guardar los valores
ufs-choose = Elegir archivo…
ufs-file-dialog = Archivo de valores de la UF
ufs-file-filter = Tablas de la UF
st-uf-pesos = Referencia: { $uf } equivalen a { $pesos } con la UF del { $date } ({ $value }, { $from }). En pesos se paga el valor de la UF del día del pago.
st-uf-from-cmf = publicada por la CMF
st-uf-from-table = de una tabla de valores de la UF
st-uf-pesos-choice = Con los pesos de la UF
st-uf-pesos-hint = Bajo lo adeudado en UF, una línea con su equivalente en pesos al valor de hoy (referencial: en pesos se paga el valor del día del pago).
io-not-found = el archivo o la carpeta no existe
io-permission = este usuario no tiene permiso
io-exists = ya existe
io-full = el disco está lleno (o se llegó al límite de espacio)
io-read-only = el disco es de solo lectura
io-is-folder = es una carpeta, no un archivo
io-not-folder = parte de la ruta no es una carpeta
io-invalid-data = el contenido no es válido
io-timed-out = no respondió a tiempo
io-interrupted = se interrumpió
io-broken-pipe = quien leía la salida dejó de leer
io-system = error del sistema número { $code }
ext-program-ended = { $program } terminó con el código { $code }
journal-details-where = Registro: { $path }. Lo que dijo su base de datos:

## Contracts panel
tab-contracts = Contratos
ctp-title = Contratos: facturas que se repiten
ctp-intro = Cada período de un contrato se emite una vez, en este computador o en el de un colega. Impórtelos desde una planilla (contrato, cliente, monto, moneda, cada, desde…); la emisión de un período emite lo que cada uno debe hasta él.
ctp-file = Archivo de contratos
ctp-import = Importar
ctp-import-refused = { $count ->
    [one] 1 problema en el archivo: no se guardó ningún contrato.
   *[other] { $count } problemas en el archivo: no se guardó ningún contrato.
}
ctp-loading = Leyendo los contratos…
ctp-none = Aún no hay contratos guardados.
ctp-filter = Filtro
ctp-table = Contratos
ctp-col-contract = Contrato
ctp-col-customer = Cliente
ctp-col-every = Cada
ctp-col-amount = Monto
ctp-col-bill-in = Se factura en
ctp-col-from = Desde
ctp-col-to = Hasta
ctp-col-state = Estado
ctp-col-period = Período
ctp-col-due = Vence
ctp-col-note = Nota
ctp-period = Período (AAAA-MM)
ctp-preview = Ver lo que se emite
ctp-not-a-period = Escriba el período como AAAA-MM, por ejemplo 2026-11.
ctp-no-uf-kept = no hay valor guardado para ese día
ctp-plan-table = Facturas del período
ctp-note-catch-up = período atrasado
ctp-note-uf = { $uf } a { $value } (UF del { $day })
ctp-confirm-title = Confirmar la emisión del período
ctp-confirm = { $count ->
    [one] ¿Emitir 1 factura
   *[other] ¿Emitir { $count } facturas
} de { $contracts ->
    [one] 1 contrato
   *[other] { $contracts } contratos
} del período { $period }?
ctp-confirm-note = Cada factura queda anotada en el registro antes de enviarse; un período nunca se emite dos veces, en este computador ni en otro.
journal-older-layout = El registro compartido del equipo aún no guarda contratos: su dueño lo pone al día ejecutando de nuevo invoice-desk journal init (las facturas, anulaciones y correos siguen como antes).
act-contract-changes = Cambios de contratos ({ $count })
act-contract-change = { $time } · { $who } · contrato { $id }: { $what }
rv-contracts-next = Contratos: { $count ->
    [one] 1 factura
   *[other] { $count } facturas
} por emitir hasta el próximo período ({ $period }, incluidos los atrasados): { $totals }.
ctp-new = Nuevo contrato
ctp-change = Cambiar un contrato desde un período
ctp-f-id = Contrato
ctp-f-customer = Cliente (id, nombre o RUT)
ctp-f-amount = Monto
ctp-f-currency = Moneda
ctp-f-every = Cada
ctp-f-day = Día del mes en que se emite
ctp-f-due-days = Días para vencer
ctp-f-start = Desde (AAAA-MM)
ctp-f-end = Hasta (AAAA-MM, opcional)
ctp-f-description = Glosa
ctp-f-from = Desde el período (AAAA-MM)
ctp-f-new-amount = Monto nuevo
ctp-read-back = { $id } · { $customer } · { $amount }, { $every }, se emite el día { $day }, desde { $start }.
ctp-save = Guardar el contrato
ctp-saved = Contrato { $id } guardado.
ctp-kept-already = Ese contrato ya está guardado, tal cual.
ctp-apply-amount = Cambiar el monto
ctp-apply-pause = Pausar
ctp-apply-resume = Reanudar
ctp-apply-end = Terminar después de él
ctp-f-which = Contrato a cambiar

## Cuatro ojos en el equipo (aprobaciones)
journal-needs-approval = La política del equipo pide que otro miembro del equipo lo apruebe primero, y el registro no tiene una aprobación que valga para esto (aún no aprobada, rechazada, vencida o dada para otra cosa): no se envió nada.
journal-approval-refused = El registro compartido no tomó la decisión: el pedido es suyo, venció, ya se decidió o no existe.
ap-what-void = anular { $invoice }
ap-what-void-of = anular { $invoice } de { $customer } por { $amount }
ap-what-void-of-customer = anular { $invoice } de { $customer }
ap-what-create = emitir la factura { $reference } a { $customer } por { $amount }
ap-what-run-file = emitir { $count ->
    [one] 1 factura
   *[other] { $count } facturas
} de { $file } ({ $amount })
ap-what-run = emitir { $count ->
    [one] 1 factura
   *[other] { $count } facturas
} de contratos ({ $amount })
ap-pending = espera aprobación hasta el { $until }
ap-approved = aprobado por { $who } el { $when }
ap-rejected = rechazado por { $who } el { $when }
ap-expired = venció el { $when } sin decisión
ap-carried-out = { $items ->
    [one] llevado a cabo
   *[other] llevado a cabo: { $used } de { $items }
}
ap-lapsed = venció el { $when } sin llevarse a cabo
ap-line = Pedido { $id }: { $what } · lo pidió { $who } el { $when } · { $state }
ap-ui-badge = { $count } por aprobar
ap-ui-title = Pedidos de aprobación ({ $count })
ap-ui-note = Una nota (un rechazo dice por qué)
ap-ui-note-label = Nota del pedido { $id }
ap-ui-approve-n = Aprobar el pedido { $id }
ap-ui-reject-n = Rechazar el pedido { $id }
ap-ui-approve = Aprobar
ap-ui-reject = Rechazar
ap-ui-reject-needs-note = Un rechazo dice por qué: escríbalo en la nota.
ap-ui-approved = Aprobó el pedido { $id }: { $what }. { $who } puede llevarlo a cabo, una vez.
ap-ui-rejected = Rechazó el pedido { $id }: { $what }. No se enviará nada de él.
ap-ui-mine-approved = Aprobado: hágalo de nuevo (Anular, Emitir o Enviar) para llevarlo a cabo.
lk-approval-asked = Pedido de aprobación { $id }: { $what } (falta la aprobación de otro miembro del equipo). No se envió nada. Cuando lo aprueben, pulse Anular de nuevo.
ap-refused = No se envió nada: pedido de aprobación { $id } ({ $what }): { $state }.
cr-approval-asked = Pedido de aprobación { $id }: { $what } (falta la aprobación de otro miembro del equipo). No se envió nada. Cuando lo aprueben, pulse Emitir de nuevo.
ap-approved-entry = aprobado por { $who } (pedido { $id })
mail-rate-server = servidor
ap-what-mail = enviar por correo a { $count ->
    [one] 1 cliente
   *[other] { $count } clientes
} sus estados de cuenta y recordatorios ({ $month })
