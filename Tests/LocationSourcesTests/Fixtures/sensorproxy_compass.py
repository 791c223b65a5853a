'''python-dbusmock template: iio-sensor-proxy's compass object, as upstream's net.hadess.SensorProxy.xml
declares it (object /net/hadess/SensorProxy/Compass, interface net.hadess.SensorProxy.Compass).

dbusmock's own iio-sensors-proxy template puts the compass on the main object, so the tests use this
one. Parameters: HasCompass (bool) and CompassHeading (float), e.g.
python3 -m dbusmock --system --template sensorproxy_compass.py -p '{"HasCompass": true, "CompassHeading": 90.0}'
Change them with org.freedesktop.DBus.Mock.UpdateProperties, which sends PropertiesChanged.
DenyClaim (bool) makes ClaimCompass fail with AccessDenied, as the proxy's bus policy does for any
user but Geoclue's.
'''

import dbus

BUS_NAME = 'net.hadess.SensorProxy'
MAIN_OBJ = '/net/hadess/SensorProxy/Compass'
MAIN_IFACE = 'net.hadess.SensorProxy.Compass'
SYSTEM_BUS = True


def load(mock, parameters):
    parameters = parameters or {}
    claim = ''
    if parameters.get('DenyClaim', False):
        claim = ("raise dbus.exceptions.DBusException('Rejected send message', "
                 "name='org.freedesktop.DBus.Error.AccessDenied')")
    mock.AddMethods(MAIN_IFACE, [
        ('ClaimCompass', '', '', claim),
        ('ReleaseCompass', '', '', ''),
    ])
    mock.AddProperties(MAIN_IFACE, {
        'HasCompass': dbus.Boolean(parameters.get('HasCompass', False)),
        'CompassHeading': dbus.Double(parameters.get('CompassHeading', -1.0)),
    })
