# The command line's help in Spanish, laid over clap's English (src/cli/help.rs): one key
# per command (help-cmd-PATH), argument (help-arg-PATH--ARG, or help-arg--ARG where every
# command says the same), value name (help-value--ARG) and possible value.
help-heading-commands = Comandos
help-heading-options = Opciones
help-heading-arguments = Argumentos
help-value-command = COMANDO
help-value-options = OPCIONES
help-possible-values = valores
help-default = por omisión
help-flag-help = Muestra esta ayuda
help-flag-version = Muestra la versión

## Exit codes (src/cli/exit.rs)
help-exit-title = Códigos de salida
help-exit-0 = éxito
help-exit-1 = el registro no se puede leer ni escribir, nada se envió, o el programa no pudo partir (`find`: nada encontrado; `doctor`: una revisión encontró un problema)
help-exit-2 = uso equivocado o datos rechazados antes de enviar
help-exit-3 = falló la autenticación (el emisor de tokens, o un 401/403)
help-exit-4 = el servicio, el servidor de correo o la CMF respondió con un error (`uf check`: un valor guardado difería)
help-exit-5 = falla de red, tiempo agotado o un certificado no confiable
help-exit-6 = resultado desconocido: revise antes de reintentar (se envió y no llegó respuesta, o la respuesta no se pudo leer)
help-exit-7 = la política del equipo pide la aprobación de otro miembro (pedida, en espera o rechazada): no se envió nada
help-exit-8 = `journal verify` encontró un registro cambiado o quitado
help-exit-130 = detenido con Ctrl-C
help-exit-141 = quien leía la salida se fue

## Usage errors (clap's, in Spanish)
help-error-repeated = el argumento '{ $arg }' no puede usarse más de una vez
help-error-conflict = el argumento '{ $arg }' no puede usarse junto con '{ $other }'
help-error-conflict-any = el argumento '{ $arg }' no puede usarse junto con otro de los dados
help-error-no-equals = '{ $arg }' necesita su valor tras un signo igual
help-error-value-missing = '{ $arg }' necesita un valor y no se dio ninguno
help-error-value = el valor '{ $value }' no sirve para '{ $arg }'
help-error-command = no existe el comando '{ $command }'
help-error-missing = faltan estos argumentos obligatorios:
help-error-command-missing = '{ $command }' necesita un comando y no se dio ninguno
help-error-too-many = sobra el valor '{ $value }' para '{ $arg }'
help-error-how-many = '{ $arg }' necesita { $expected } valores y se dieron { $given }
help-error-unknown = no se esperaba el argumento '{ $arg }'
help-error-utf8 = un argumento no es texto UTF-8 válido
help-error-other = la línea de comandos no es válida
help-error-did-you-mean = ¿quiso decir '{ $like }'?
help-error-more = Para más información, pruebe '--help'.

## The program
help-cmd-root = Emite, consulta, anula y exporta facturas (CLP/CLF).
help-after-root =
    Cada emisión, anulación y exportación se escribe primero en el registro (vea `journal --help`; INVOICE_DESK_JOURNAL cambia su archivo).

    La configuración viene del perfil activo (o de --profile), y cada valor se puede reemplazar con INVOICE_DESK_BASE_URL, INVOICE_DESK_AUTH_URL, INVOICE_DESK_AUDIENCE, INVOICE_DESK_CLIENT_ID, INVOICE_DESK_CLIENT_SECRET, INVOICE_DESK_API_KEY, INVOICE_DESK_API_KEY_HEADER, INVOICE_DESK_ACCOUNT_KEY, INVOICE_DESK_TOKEN_BODY (json o form, como --form-body), INVOICE_DESK_CURRENCIES (los códigos que create --currency puede usar, p. ej. CLP,CLF,USD). Con una clave de API y sin id de cliente OAuth se usa el modo de clave de API. INVOICE_DESK_TIMEOUT fija el límite de tiempo de una solicitud en segundos (30 por omisión); INVOICE_DESK_MAX_INVOICES limita un listado (2000000 por omisión). INVOICE_DESK_CONFIG_DIR cambia la carpeta del archivo de perfiles (y del registro de soporte, en su carpeta logs); INVOICE_DESK_LOG_DIR elige la carpeta del registro de soporte (vacío: sin registro); INVOICE_DESK_KEYRING=none deja fuera el llavero del sistema (los secretos vienen entonces del entorno).
help-arg-root--profile = Usar este perfil en vez del activo
help-arg-root--json = Imprimir las facturas como JSON en la salida estándar
help-arg-root--lang = El idioma de los mensajes: en (inglés) o es (español); por omisión, el del sistema. Lo que leen las máquinas (--json, CSV, códigos de salida) es igual en ambos
help-possible-root--lang--en = inglés
help-possible-root--lang--es = español

## profile
help-cmd-profile = Administra los perfiles (los secretos van al llavero del sistema, leídos de la entrada estándar o preguntados)
help-cmd-profile-add = Agrega o reemplaza un perfil; el secreto se lee de la entrada estándar (o se pregunta sin mostrarlo)
help-arg--name = Nombre del perfil
help-arg-profile-show--name = Nombre del perfil (por omisión, el activo)
help-arg-profile-sender--name = Nombre del perfil (por omisión, el activo)
help-arg-profile-mail--name = Nombre del perfil (por omisión, el activo)
help-arg-profile-add--mode = Modo de autenticación
help-possible-profile-add--mode--oauth = credenciales de cliente OAuth 2.0
help-possible-profile-add--mode--api-key = clave de API
help-arg-profile-add--base-url = La dirección base del servicio
help-arg-profile-add--auth-url = La dirección del proveedor de identidad (OAuth)
help-arg-profile-add--audience = Audiencia (OAuth)
help-arg-profile-add--client-id = Id de cliente (OAuth)
help-arg-profile-add--form-body = Enviar la solicitud del token como formulario (OAuth)
help-arg-profile-add--api-key-header = Nombre del encabezado de la clave de API
help-arg-profile-add--account-key = Clave de la cuenta (x-account-key)
help-arg-profile-add--account-currency = La moneda de la cuenta, para mostrarla (un código ISO 4217)
help-arg-profile-add--currencies = Las monedas que se ofrecen además de la de la cuenta (códigos ISO 4217 separados por comas); por omisión CLP,CLF
help-cmd-profile-list = Lista los perfiles
help-cmd-profile-show = Muestra un perfil (nunca su secreto)
help-cmd-profile-remove = Quita un perfil y su secreto guardado
help-cmd-profile-use = Deja un perfil como el activo
help-cmd-profile-sender = Fija de quién son los estados de cuenta (solo cambian las opciones dadas)
help-arg-profile-sender--organization = El nombre de la organización
help-arg-profile-sender--rut = Su RUT (se verifica el dígito verificador)
help-arg-profile-sender--address = Su dirección
help-arg-profile-sender--email = Un correo de contacto
help-arg-profile-sender--phone = Un teléfono de contacto
help-arg-profile-sender--logo = Un logo PNG o JPEG de 1 MB como máximo (un valor vacío lo quita)
help-arg-profile-sender--payment-text = Cómo pagar (banco, cuenta), impreso al final de cada estado de cuenta
help-cmd-profile-mail = Fija el servidor de correo por el que salen los correos a clientes (solo cambian las opciones dadas). Con --user, su contraseña se lee (preguntada sin mostrarla, la primera línea de la entrada estándar o INVOICE_DESK_SMTP_PASSWORD) y se guarda en el llavero, nunca en un archivo
help-arg-profile-mail--server = El nombre del servidor (smtp.ejemplo.cl)
help-arg-profile-mail--port = Su puerto (por omisión: 587 con starttls, 465 con tls)
help-arg-profile-mail--security = starttls (puerto 587), tls (465) o none (solo para un servidor en este computador)
help-possible-profile-mail--security--starttls = STARTTLS
help-possible-profile-mail--security--tls = TLS desde el inicio
help-possible-profile-mail--security--none = ninguna (solo este computador)
help-arg-profile-mail--user = El usuario (un valor vacío: sin usuario)
help-arg-profile-mail--from = De quién son los correos: "Cobranzas ACME <cobranzas@acme.cl>"
help-arg-profile-mail--reply-to = Adónde van las respuestas de los clientes (vacío: a --from)
help-arg-profile-mail--copy-to = La copia oculta del equipo de cada correo (vacío: ninguna)
help-arg-profile-mail--per-minute = Como máximo esta cantidad de correos por minuto, hasta 100000, o `server`: tan rápido como el servidor los reciba (el servidor propio de un equipo). 30 si no se indica
help-arg-profile-mail--ca-file = Una autoridad certificadora (PEM) en que confiar además de las del sistema, para un servidor propio del equipo (vacío: ninguna)

## token, create, get, void, list, export
help-cmd-token = Pide un token y muestra cuándo vence (revisa las credenciales)
help-cmd-create = Emite una factura. Sin --currency, rige la moneda de la cuenta
help-arg-create--customer = Cliente: su id, o un nombre o RUT que el directorio conoce (exactamente un cliente)
help-arg-create--amount = Monto (como en Chile, 1.234.567 o 12,3456, o simple 1234567 / 12.3456)
help-arg-create--currency = Moneda (un código ISO 4217 entre los del perfil, los de INVOICE_DESK_CURRENCIES o CLP,CLF); si se omite, rige la moneda de la cuenta (no se envía currency_code)
help-arg-create--product = Id del producto
help-arg-create--due = Fecha de vencimiento: AAAA-MM-DD, o DD-MM-AAAA / DD/MM/AAAA como se escribe en Chile; se envía como AAAA-MM-DD. El día debe existir
help-arg-create--external-id = Su propia referencia (por omisión, una nueva y única, que se imprime, para revisar un resultado desconocido)
help-arg-create--fields = Campo adicional, CLAVE=VALOR (se puede repetir; metadata.CLAVE=VALOR para metadatos)
help-arg-create--account-key = Clave de la cuenta para esta llamada (en vez de la del perfil)
help-arg-create--allow-similar = Emitirla aunque se parezca a una factura ya emitida (mismo cliente, monto, moneda y vencimiento; sin vencimiento, el mismo día)
help-arg-create--reissue-missing = Emitirla aunque el registro tenga la referencia como emitida, cuando el servicio no tiene esa factura ni ninguna de esa referencia (se pregunta primero; la decisión queda en el registro). Una factura que el servicio tiene nunca se emite de nuevo
help-cmd-get = Muestra una factura
help-arg--id = Id de la factura
help-cmd-void = Anula una factura (pide confirmación salvo con --yes)
help-arg--yes = No preguntar; obligatorio cuando la entrada estándar no es una terminal
help-cmd-list = Lista las facturas de un cliente
help-arg--customer = Id del cliente
help-arg-list--format = Formato de la salida
help-possible-list--format--table = una tabla de texto
help-possible-list--format--json = un arreglo JSON
help-possible-list--format--csv = CSV (dialecto estándar)
help-cmd-export = Exporta las facturas de un cliente a un archivo CSV o a un libro de Excel
help-arg-export--out = El archivo a escribir (se reemplaza solo si la exportación resulta). Un nombre terminado en .xlsx da un libro de Excel, salvo que --format diga otra cosa
help-arg-export--format = csv o xlsx (un libro de Excel: celdas con tipo, una hoja de resumen con la antigüedad de la deuda y los totales por mes). Por omisión, según la extensión de --out; si no, csv
help-possible-export--format--csv = CSV (vea --dialect)
help-possible-export--format--xlsx = un libro de Excel
help-arg-export--dialect = Variante de CSV (solo CSV)
help-possible--dialect--standard = RFC 4180: coma, punto decimal, UTF-8, sin BOM
help-possible--dialect--excel-es = Excel en español (Chile): punto y coma, coma decimal, BOM, CRLF, títulos y estados en español
help-arg-export--as-of = El día en que se cuentan los días de atraso y la antigüedad de la deuda (solo libro de Excel), AAAA-MM-DD. Por omisión, hoy

## statement, statements, receivables
help-cmd-statement = El estado de cuenta de un cliente en PDF: lo que debe en un día, por moneda y días de atraso, cada factura abierta con su enlace de pago y su código QR, en el idioma de --lang. Los datos del remitente vienen de `profile sender`
help-arg-statement--out = El PDF a escribir (se reemplaza solo cuando está completo)
help-arg--as-of = El día en que se cuentan los días de atraso, AAAA-MM-DD. Por omisión, hoy
help-arg-statement--all = Listar también las facturas pagadas y anuladas (lo adeudado es el mismo)
help-arg-statement--uf-pesos = Bajo lo adeudado en UF, sus pesos al valor de la UF del día (`uf show`), como referencia; sin valor para ese día, solo UF y un aviso
help-cmd-statements = Los estados de cuenta de un mes en una sola pasada: un PDF por cliente que debe algo (estado-de-cuenta-<cliente>-<fecha>.pdf, sin sobrescribir nunca) y un CSV de resumen de todos los clientes (quien no debe nada no recibe PDF). Queda en el registro
help-arg--customers = Un archivo de ids de clientes, uno por línea (o la primera columna de un CSV)
help-arg-statements--all-known = Todos los clientes que el directorio conoce (importados, o vistos en el registro)
help-arg-statements--out = La carpeta donde escribir (se crea si falta)
help-arg--all = Listar también las facturas pagadas y anuladas
help-arg-statements--dialect = La variante del CSV de resumen, como en export (sus títulos van en el idioma de --lang). Por omisión, excel-es para quien trabaja en español (Excel en Chile lo lee así); si no, standard
help-arg-statements--uf-pesos = Bajo lo adeudado en UF, sus pesos al valor de la UF del día, como en `statement`
help-cmd-receivables = La cartera de todos los clientes: lo que cada uno debe en un día, por moneda y días de atraso (al día, 1–30, 31–60, 61–90, más de 90), los días de atraso más antiguos y la última factura; totales por moneda. Todos los clientes que el directorio conoce (importados, o vistos en el registro), o los de --customers. Un cliente cuyas facturas no se pudieron listar se dice como tal (salida 4), nunca como que no debe nada. Con --json, un arreglo; con --out ARCHIVO.csv, una fila por cliente y moneda
help-arg-receivables--only-overdue = Solo los clientes con algo vencido
help-arg-receivables--older-than = Solo los clientes con algo vencido hace más de esta cantidad de días
help-arg-receivables--out = Escribir la tabla en este archivo CSV (se reemplaza solo cuando está completo)

## sandbox, doctor
help-cmd-sandbox = Ejecuta el sandbox incluido: una copia local del servicio y de su emisor de tokens
help-arg-sandbox--port = Puerto de la API de facturas (0: cualquiera libre)
help-arg-sandbox--auth-port = Un puerto aparte para el emisor de tokens (por omisión, el mismo de la API)
help-arg-sandbox--seed = Semilla de los datos generados
help-arg-sandbox--big-customer = Facturas del cliente grande cus_big (0: ninguna)
help-arg-sandbox--extra-customers = Más clientes (cus_m00000…), para una cartera de muchos clientes
help-arg-sandbox--invoices-each = Facturas que tiene cada uno de esos clientes adicionales
help-arg-sandbox--data = Guardar los datos en este archivo JSON (se carga si existe)
help-arg-sandbox--token-lifetime = Duración de los tokens emitidos, en segundos
help-arg-sandbox--latency-ms = Demora agregada a cada solicitud, en milisegundos
help-arg-sandbox--bind = Dirección en la que escuchar (la local, salvo que se indique otra)
help-arg-sandbox--currencies = Los códigos de moneda que acepta en currency_code (como el servicio: CLP,CLF)
help-arg-sandbox--finish-abandoned = Completar una emisión o anulación aunque su cliente se haya ido antes de la respuesta (como hace un servicio real); sin esto, esa solicitud se descarta con su conexión
help-cmd-doctor = Revisa este computador: el llavero (un secreto de prueba escrito, leído y borrado), las carpetas, los certificados, la versión. Sale con 0 cuando todo está bien, 1 si no

## journal
help-cmd-journal = El registro de cada emisión, anulación y exportación hecha en este computador (la de la aplicación y la de la línea de comandos): listarlo (lo que hace por omisión), exportarlo, verificarlo, resolver los resultados aún desconocidos. Su archivo: INVOICE_DESK_JOURNAL, si no journal.sqlite3 en la carpeta de datos
help-after-journal =
    Códigos de salida (vea invoice-desk --help): `journal verify`: 0 la cadena está intacta, 8 un registro fue cambiado o quitado (se nombra el primero); `journal resolve`: 0 no queda nada por revisar, 6 algunos resultados siguen desconocidos.

    --json imprime un objeto por línea: `seq`, `time` (RFC 3339, UTC), `user`, `profile`, `base_url`, `action`, `customer`, `amount`, `currency_code` (ausente: la moneda de la cuenta), `account_last4`, `external_id`, `invoice_id`, `outcome` (`done`, `refused`, `unknown`), `error_kind`, `error_code`, `file_name`, `rows`, `settled_time`, `checked`, y en un registro compartido `db_user` (el rol de la base de datos que lo escribió, como lo conoce su servidor) y, para una fila copiada por `journal push`, `copied_time` (la hora que le dio su propio registro).
help-arg--since = Solo los registros anotados desde este día (AAAA-MM-DD, hora local)
help-arg--action = Solo esta acción
help-possible--action--create = emisiones
help-possible--action--void = anulaciones
help-possible--action--export = exportaciones
help-possible--action--email = correos a clientes
help-arg--outcome = Solo este resultado
help-possible--outcome--done = hechos
help-possible--outcome--refused = rechazados
help-possible--outcome--unknown = desconocidos: por revisar
help-cmd-journal-list = Lista los registros, del más antiguo al más nuevo (también por omisión)
help-cmd-journal-export = Escribe los registros en un archivo CSV
help-arg-journal-export--out = El archivo CSV a escribir
help-cmd-journal-verify = Recorre la cadena de hashes: sale con 0 si está intacta, con 8 nombrando el primer registro roto
help-cmd-journal-init = Prepara el registro compartido de un equipo (PostgreSQL); lo ejecuta una vez el dueño de la base de datos: crea sus tablas y deja que el rol de los empleados agregue registros y los lea, nunca que los cambie o los quite. La contraseña viene de INVOICE_DESK_JOURNAL_PASSWORD
help-arg-journal-init--url = La dirección de la base de datos, postgres://dueño@servidor/base (sin contraseña)
help-arg-journal-init--clerks = El rol de base de datos de los empleados, con lo que puede hacer (si no, se imprimen las instrucciones para que las ejecute el dueño)
help-arg-journal-init--time-zone = La zona horaria del equipo (nombre IANA; America/Santiago si no se indica): el reloj del servidor en ella decide el mes de los correos de cada empleado y qué es "hoy"
help-cmd-journal-policy = Los cuatro ojos del equipo en su registro compartido: qué anulaciones, emisiones masivas y facturas necesitan la aprobación de otro miembro. Cualquiera la ve; la cambia el dueño de la base de datos, con su dirección (la contraseña de INVOICE_DESK_JOURNAL_PASSWORD)
help-arg-journal-policy--url = La dirección de la base de datos como su dueño, postgres://dueño@servidor/base (para cambiar la política; sin ella, se muestra la del registro)
help-arg-journal-policy--approve-voids = Toda anulación necesita la aprobación de otro miembro del equipo
help-arg-journal-policy--approve-runs-over = Una emisión masiva o de contratos de más filas que estas la necesita
help-arg-journal-policy--approve-amount-over = Una factura de más de este monto en esta moneda la necesita (también la que queda en la moneda de la cuenta)
help-arg-journal-policy--approval-hours = Horas que vale un pedido antes de vencer (24 si no se indica)
help-arg-journal-policy--off = Nada necesita aprobación desde ahora
help-cmd-journal-push = Copia el registro de este computador al registro compartido del equipo (PostgreSQL): cada registro con quién lo escribió y cuándo, y las referencias que reservó. Ejecutarlo de nuevo no copia nada dos veces
help-arg-journal-push--to = El registro compartido, postgres://empleado@servidor/base (la contraseña de INVOICE_DESK_JOURNAL_PASSWORD)
help-arg-journal-push--from = El registro local a copiar (por omisión, el de este computador, o INVOICE_DESK_JOURNAL cuando nombra un archivo)
help-cmd-journal-resolve = Pregunta al servicio qué pasó con cada registro de resultado desconocido (una emisión por su referencia entre las facturas del cliente, una anulación leyendo la factura) y lo anota. Sale con 6 cuando algunos siguen desconocidos
help-arg-journal-resolve--include-recent = Se acepta por guiones antiguos: se revisa cada registro desconocido; uno no encontrado se da por no emitido solo cuando su solicitud ya no puede estar en curso

## bulk
help-cmd-bulk = Emite las facturas de una planilla (la facturación del mes): cada fila se revisa primero, se envía a un ritmo seguro, queda en el registro y nunca se emite dos veces (ejecutar el mismo archivo de nuevo salta lo ya emitido). Sale con 0 si cada fila se emitió o ya estaba; 2 datos no válidos (nada enviado); 4 algunas filas rechazadas; 6 algunas filas aún desconocidas
help-arg-bulk--file = El archivo: CSV (coma o punto y coma; UTF-8 o Windows-1252) o Excel .xlsx. Columnas por su título, en español o inglés: cliente|customer (un id, o un nombre o RUT del directorio de clientes), monto|amount, moneda|currency_code|currency (vacío: la de la cuenta), vencimiento|due_date, producto|product_id, referencia|invoice_external_id|external_id (vacío: una hecha de lo que emite la fila, para que el mismo mes en cualquier formato u orden sea la misma emisión), cuenta|account_key, metadata.NOMBRE
help-arg-bulk--dry-run = Revisar y mostrar lo que se enviaría; no enviar nada
help-arg-bulk--concurrency = Solicitudes a la vez (de 1 a 64)
help-arg-bulk--skip-invalid = Enviar las filas válidas aunque haya filas no válidas (esas se informan)
help-arg-bulk--sheet = La hoja de Excel (por omisión, la primera)
help-arg-bulk--ignore-columns = Dejar fuera las columnas que el título no nombra (si no, detienen la emisión)
help-arg-bulk--report = Escribir un informe CSV: `row`, `invoice_external_id`, `status` (`created`, `refused`, `unknown`, `skipped_existing`, `possible_duplicate`, `skipped_invalid`, `not_sent`), `invoice_id`, `error`
help-arg-bulk--allow-similar = Emitir las filas que se parecen a una factura ya emitida (mismo cliente, monto, moneda y vencimiento); sin esto se saltan y se informan

## customers
help-cmd-customers = El directorio de clientes (en el archivo del registro): importarlo desde una planilla, buscar clientes por nombre, RUT o id
help-cmd-customers-import = Importa (agrega o reemplaza) clientes desde un archivo CSV o XLSX con un título que nombra las columnas: id|cliente|customer, nombre|name|razón social, rut, notas|notes. Se revisa el dígito verificador de cada RUT; ante cualquier problema no se importa nada (salida 2)
help-arg--file = El archivo
help-cmd-customers-find = Lista los clientes cuyo nombre, RUT o id contiene TEXTO (todos, sin él)
help-arg-customers-find--text = Lo que se busca
help-cmd-customers-contacts = Muestra o fija adónde se envían por correo los estados de cuenta, facturas y recordatorios de un cliente (hasta 10 direcciones; cada una se revisa, y una que no lo sea no cambia nada)
help-arg-customers-contacts--emails = Las direcciones (reemplazan las guardadas); ninguna: mostrarlas
help-arg-customers-contacts--clear = Quitar todas las direcciones (el cliente no recibe correos)

## email
help-cmd-email = Envía por correo a los clientes sus estados de cuenta, facturas y recordatorios por el servidor de correo del perfil (`profile mail`), cada uno una vez: queda en el registro como una emisión. Sale con 0 si todo se envió o ya se había enviado; 2 configuración o datos malos (nada enviado); 4 algunos rechazados o no enviados; 5 no se pudo usar el servidor de correo; 6 algunos resultados desconocidos
help-cmd-email-statements = Envía por correo los estados de cuenta de un mes, con el PDF adjunto, a cada cliente que debe algo y tiene una dirección en el directorio (`customers contacts`, o la columna correo|email del archivo del directorio). Cada correo se reserva en el registro antes de enviarse: una segunda pasada, otro empleado o una pasada tras una caída nunca envían uno dos veces (un correo cuya respuesta nunca llegó se informa, no se reenvía). Con --reminders, un recordatorio en su lugar (30, 60 o 90 días de atraso) a quienes tienen su factura impaga más antigua con al menos 30 días de atraso
help-arg-email-statements--all-known = Todos los clientes que el directorio conoce
help-arg-email-statements--customer = Este cliente (se puede repetir)
help-arg-email-statements--as-of = El día en que se cuentan los días de atraso, AAAA-MM-DD (por omisión, hoy). Su mes es el del correo: un estado de cuenta (o recordatorio) por cliente y mes
help-arg-email-statements--reminders = Recordatorios (30, 60 o 90 días de atraso) en vez de estados de cuenta
help-arg-email-statements--again = Enviar de nuevo lo que pudo haberse enviado este mes (no llegó respuesta: su resultado está en duda); lo que el servidor recibió con seguridad no se envía de nuevo (vea --again-all)
help-arg-email-statements--again-all = Con --again: enviar de nuevo también lo enviado con seguridad (el correo del mes de cada cliente una vez más)
help-arg-email-statements--uf-pesos = Una línea bajo lo adeudado en UF con sus pesos al valor del día (como `statement --uf-pesos`)
help-arg-email-statements--preview = Mostrar qué se enviaría y a quién; no enviar nada
help-cmd-email-invoice = Envía por correo una factura, con su PDF adjunto, a las direcciones de su cliente
help-arg-email-invoice--again = Enviarla aunque ya se envió (o pudo haberse enviado)
help-arg-email-invoice--preview = Mostrar lo que se enviaría; no enviar nada
help-cmd-email-template = Imprime la plantilla de un correo en el idioma de --lang (`statement`, `invoice`, `reminder-30`, `reminder-60`, `reminder-90`); con --write, en la carpeta de plantillas, donde una copia editada se usa en vez de la incluida. Marcadores: { "{customer} {organization} {date} {owed} {invoice} {amount} {due} {days} {contact}" }
help-arg-email-template--kind = Cuál
help-arg-email-template--write = Escribirla en la carpeta de plantillas (no sobre un archivo que ya esté ahí)

## uf
help-cmd-uf = El valor de la UF en pesos (publicado por el Banco Central, servido por la API de la CMF con una clave gratuita: `uf key`): el valor de un día, guardado en el registro para que cada día se pida una sola vez (en un equipo, una vez para todos); o un archivo de valores importado para un computador sin ese acceso. Sale con 0 si hay un valor; 2 sin clave o un archivo malo; 3 la clave rechazada; 4 sin valor ese día; 5 la CMF no responde
help-cmd-uf-show = El valor de un día (hoy, por omisión), y un monto en UF en pesos a ese valor
help-arg-uf-show--date = El día, AAAA-MM-DD
help-arg-uf-show--amount = Un monto en UF para mostrar en pesos ("23,193")
help-cmd-uf-import = Guarda los valores de un archivo: la respuesta de la CMF guardada (.json), una tabla con columnas Fecha y Valor (CSV o Excel, como la descarga del Banco Central), o la tabla de un año del SII (una columna Día y una por mes). Se guardan bajo el nombre del archivo junto a los valores de la CMF (los de la CMF se usan primero); un día que rompe la continuidad con los días vecinos (más de 0,5 %) rechaza el archivo completo y no se guarda nada
help-arg-uf-import--year = El año de la tabla del SII cuando el nombre del archivo no lo dice
help-cmd-uf-check = Vuelve a leer de la CMF los valores guardados, mes a mes (por omisión este mes y el anterior): cada uno que la CMF contradice se reemplaza (el valor de un archivo se guarda junto al de la CMF, que es el que se usa) y queda en el registro; cada diferencia se informa. Sale con 0 si todos coinciden; 4 si alguno no (ya corregido); 5 la CMF no responde
help-arg-uf-check--from = El primer día, AAAA-MM-DD
help-arg-uf-check--to = El último día, AAAA-MM-DD
help-cmd-uf-key = Guarda la clave de la API de la CMF en el llavero (preguntada, o la primera línea de la entrada estándar); con --address, lee la UF de otra dirección que la de la CMF
help-arg-uf-key--address = La dirección de la API (por omisión https://api.cmfchile.cl/api-sbifv3/recursos_api)

## find
help-cmd-find = Busca facturas por id, referencia, RUT, nombre del cliente o monto ("1.341.000", "UF 23,193") en lo que este computador y el equipo conocen: el registro (cada emisión y anulación), el directorio de clientes y cada listado leído (guardado en un índice de búsqueda junto al registro); un id de factura que nada aquí conoce se pregunta al servicio. Sale con 0 si encontró algo; 1 si nada
help-arg-find--text = Lo que se busca
help-arg-find--local = No preguntar nada al servicio (solo lo que este computador y el equipo conocen)

## Value names (what follows an option in the usage line)
help-value--profile = PERFIL
help-value--approve-runs-over = FILAS
help-value--approve-amount-over = MONTO
help-value--approval-hours = HORAS
help-value--note = NOTA
help-value--lang = IDIOMA
help-value--name = NOMBRE
help-value--mode = MODO
help-value--base-url = DIRECCIÓN
help-value--auth-url = DIRECCIÓN
help-value--audience = AUDIENCIA
help-value--client-id = ID
help-value--api-key-header = ENCABEZADO
help-value--account-key = CLAVE
help-value--account-currency = MONEDA
help-value--currencies = MONEDAS
help-value--organization = NOMBRE
help-value--rut = RUT
help-value--address = DIRECCIÓN
help-value--email = CORREO
help-value--phone = TELÉFONO
help-value--logo = ARCHIVO
help-value--payment-text = TEXTO
help-value--server = SERVIDOR
help-value--port = PUERTO
help-value--security = SEGURIDAD
help-value--user = USUARIO
help-value--from = DESDE
help-value--reply-to = CORREO
help-value--copy-to = CORREO
help-value--per-minute = N|server
help-value--ca-file = ARCHIVO
help-value--customer = CLIENTE
help-value--amount = MONTO
help-value--currency = MONEDA
help-value--product = PRODUCTO
help-value--due = VENCIMIENTO
help-value--external-id = REFERENCIA
help-value--fields = CLAVE=VALOR
help-value--id = ID
help-value--format = FORMATO
help-value--out = SALIDA
help-value--dialect = VARIANTE
help-value--as-of = DÍA
help-value--customers = ARCHIVO
help-value--older-than = DÍAS
help-value--auth-port = PUERTO
help-value--seed = SEMILLA
help-value--big-customer = FACTURAS
help-value--extra-customers = CLIENTES
help-value--invoices-each = FACTURAS
help-value--data = ARCHIVO
help-value--token-lifetime = SEGUNDOS
help-value--latency-ms = MILISEGUNDOS
help-value--bind = DIRECCIÓN
help-value--since = DÍA
help-value--action = ACCIÓN
help-value--outcome = RESULTADO
help-value--url = DIRECCIÓN
help-value--clerks = ROL
help-value--time-zone = ZONA
help-value--to = DIRECCIÓN
help-value--file = ARCHIVO
help-value--concurrency = N
help-value--sheet = HOJA
help-value--report = ARCHIVO
help-value--text = TEXTO
help-value--emails = CORREOS
help-value--kind = CUÁL
help-value--date = DÍA
help-value--year = AÑO

## approvals
help-cmd-approvals = Pedidos de aprobación de otro miembro del equipo en el registro compartido (la política del dueño, `journal policy`): listarlos (lo que hace por omisión), aprobar o rechazar el de un colega. Una anulación, emisión o emisión masiva que la política retiene lo pide primero y sale con 7 hasta que otro miembro lo apruebe; entonces el mismo comando lo lleva a cabo, una vez
help-cmd-approvals-list = Lista los pedidos, del más nuevo al más antiguo (también por omisión): qué haría cada uno, quién lo pidió, en qué está
help-arg-approvals-list--pending = Solo los que esperan su decisión
help-cmd-approvals-approve = Aprueba el pedido de un colega: quien lo pidió puede entonces llevarlo a cabo, una vez, hasta que venza
help-arg-approvals-approve--id = El número del pedido
help-arg-approvals-approve--note = Una nota que se guarda con la aprobación
help-cmd-approvals-reject = Rechaza el pedido de un colega, diciendo por qué: no se envía nada de él
help-arg-approvals-reject--id = El número del pedido
help-arg-approvals-reject--note = Por qué (obligatorio)

## contracts
help-cmd-contracts = Contratos: facturas que se repiten (un arriendo en UF al mes, un plan en pesos al trimestre), guardados en el registro (un equipo los comparte), cada período emitido una vez, por más veces que se ejecute y en cuantos computadores sea. `contracts run` emite los de un período: códigos de salida como `bulk`
help-cmd-contracts-import = Agrega contratos desde un archivo CSV o XLSX con un título que nombra las columnas, en español o inglés: contrato|contract, cliente|customer (un id, o un nombre o RUT que el directorio conoce), monto|amount, moneda|currency (CLP, UF/CLF o cualquiera que el perfil ofrezca), facturar_en|bill_in (vacío: la moneda del contrato; CLP: pesos a la UF del día de emisión), cada|every (mes|month, trimestre|quarter, año|year; vacío: mes), dia|day (1–31; pasado el último día del mes, su último; vacío: 1), dias_vencimiento|due_days (vacío: 30), desde|start y hasta|end (AAAA-MM), referencia|reference (un patrón con { "{period}" }; vacío: <contrato>-<AAAA-MM>), glosa|description, metadata.NOMBRE. Cada fila se revisa primero: ante cualquier problema no se guarda nada (salida 2)
help-arg-contracts-import--sheet = La hoja de Excel (por omisión, la primera)
help-cmd-contracts-list = Lista los contratos (con --json, un objeto por línea)
help-cmd-contracts-show = Muestra un contrato: sus condiciones desde cada período, pausas, término, y cada cambio con quién lo hizo y cuándo
help-arg-contracts-show--id = Id del contrato
help-cmd-contracts-change = Cambia las condiciones de un contrato desde un período (los períodos anteriores conservan lo que se les facturó); solo cambian las opciones dadas
help-arg-contracts-change--id = Id del contrato
help-arg-contracts-change--from = El primer período al que se aplica el cambio, AAAA-MM
help-arg-contracts-change--amount = El monto nuevo
help-arg-contracts-change--day = El día del mes del período en que se emite (1 a 31)
help-arg-contracts-change--due-days = Días entre la emisión y el vencimiento
help-arg-contracts-change--description = La glosa
help-cmd-contracts-end = Termina un contrato: ningún período posterior a este se factura
help-arg-contracts-end--id = Id del contrato
help-arg-contracts-end--after = Su último período facturado, AAAA-MM
help-cmd-contracts-pause = Pausa un contrato desde un período (esos períodos nunca se facturan), hasta reanudarlo
help-arg-contracts-pause--id = Id del contrato
help-arg-contracts-pause--from = El primer período que no se factura, AAAA-MM
help-cmd-contracts-resume = Vuelve a facturar un contrato pausado desde un período
help-arg-contracts-resume--id = Id del contrato
help-arg-contracts-resume--from = El primer período que se factura de nuevo, AAAA-MM
help-cmd-contracts-run = La emisión de un período: los períodos de cada contrato hasta él aún no facturados (también los atrasados, cada uno informado), emitidos con la maquinaria de la facturación masiva — cada (contrato, período) una vez. Sin --yes, solo el plan
help-arg-contracts-run--period = El período, AAAA-MM (por omisión, el actual, según el reloj del equipo en su zona horaria)
help-arg-contracts-run--yes = Enviar; sin esto se muestra el plan y no se envía nada
help-arg-contracts-run--concurrency = Solicitudes a la vez (de 1 a 64)
help-arg-contracts-run--report = Escribir un informe CSV (como `bulk --report`)
help-value--day = DÍA
help-value--due-days = DÍAS
help-value--description = GLOSA
help-value--after = PERÍODO
help-value--period = PERÍODO
